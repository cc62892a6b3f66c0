package org.tracingfacility.runtime;

import org.tracingfacility.runtime.support.EnhancedCodeSupport;

/**
 * Receives the events of the monitored methods of one class for one TF annotation.
 *
 * <p>Enhanced code reads its monitor once per invocation and reports every event of that
 * invocation to it, so a monitor replaced while a method runs still sees that invocation's
 * exit. Method identifiers index the class's sorted list of tracing names; see
 * {@link MethodMonitorRegistry#methodName(Class, int)}.
 *
 * <p>Monitors are called from application threads, concurrently, and on the application's
 * hot paths: they must be thread-safe and should be cheap. An exception thrown by a monitor
 * reaches the monitored method's caller. A monitor is never re-entered: events that its own
 * work raises on its thread (a monitored {@code toString} of an argument it formats) are
 * dropped, and counted by the management bean.
 *
 * <p>Enhanced code starts and ends an invocation with {@link #enterWithToken} and
 * {@link #exitWithToken(int, long)} / {@link #exitWithToken(int, Object, long)}, which by
 * default call {@link #enter} and {@link #exit(int)} / {@link #exit(int, Object)}: a monitor
 * written against the five event methods alone sees exactly those events. A monitor that
 * needs per-invocation state (a start time) may override the three token methods to keep
 * it in the monitored method's frame instead of in a thread-local stack.
 */
public interface MethodMonitor {
    /** The class for which this monitor was created. */
    Class<?> myClass();

    /**
     * Invoked at the start of a method, before anything in the method runs.
     *
     * @param ident the method identifier
     * @param args the arguments passed to the method, boxed; an empty array when
     *     {@link #wantsArguments()} is false; a {@code @Redacted} parameter's value is
     *     replaced by a placeholder that prints as {@code <redacted>} ({@link #isRedacted})
     */
    void enter(int ident, Object... args);

    /**
     * Invoked when a monitored method calls an info method.
     *
     * @param args the info method's arguments
     * @param callerIdent the identifier of the monitored method that called the info method
     * @param selfIdent the identifier of the info method
     * @param tpType the timing point type declared on the info method
     */
    void info(Object[] args, int callerIdent, int selfIdent, TimingPointType tpType);

    /** The last event of an invocation of a method whose return type is void. */
    void exit(int ident);

    /**
     * The last event of an invocation of a method whose return type is not void.
     *
     * @param result the boxed result; null when the method ends by throwing an exception,
     *     and null when {@link #wantsArguments()} is false
     */
    void exit(int ident, Object result);

    /**
     * Reports an exception thrown in, or passing through, the method. Always followed by the
     * invocation's {@code exit} when the exception ends the method.
     */
    void exception(int ident, Throwable thr);

    /** Drops whatever state the monitor keeps and returns it to its initial state. */
    void clear();

    /**
     * Starts an invocation, as {@link #enter}, and returns a token that enhanced code keeps in
     * a local variable of the monitored method's frame and hands to this invocation's
     * {@code exitWithToken}.
     *
     * <p>The contract, which enhanced code keeps: the token returned here for an invocation
     * is passed to exactly one {@code exitWithToken} of that same invocation, on this same
     * monitor, whether the method returns or ends by a throwable; every other event of the
     * invocation comes in between, in the same order as with {@code enter} and {@code exit}.
     * Nested and recursive invocations each have their own token. Enhanced code never
     * looks at the value: what it means is this monitor's affair (a start time, say).
     *
     * <p>Override the three token methods together or not at all. Other callers (composite
     * monitors, wrappers) still use {@link #enter} and {@code exit}, so those must keep
     * working on their own.
     *
     * @return by default, after calling {@link #enter}: 0
     */
    default long enterWithToken(int ident, Object... args) {
        enter(ident, args);
        return 0L;
    }

    /**
     * Ends an invocation of a method whose return type is void, as {@link #exit(int)}.
     *
     * @param token what {@link #enterWithToken} returned for this invocation
     */
    default void exitWithToken(int ident, long token) {
        exit(ident);
    }

    /**
     * Ends an invocation of a method whose return type is not void, as
     * {@link #exit(int, Object)}.
     *
     * @param result as for {@link #exit(int, Object)}
     * @param token what {@link #enterWithToken} returned for this invocation
     */
    default void exitWithToken(int ident, Object result, long token) {
        exit(ident, result);
    }

    /**
     * Whether this monitor looks at argument and result values. When false, enhanced code
     * skips boxing: {@link #enter} receives one shared empty array and
     * {@link #exit(int, Object)} receives null (so do the token variants), so monitoring
     * allocates nothing per call.
     * Read once per invocation, so it should return a constant.
     */
    default boolean wantsArguments() {
        return true;
    }

    /**
     * Whether {@code value}, an argument handed to a monitor, is the placeholder of a
     * {@code @Redacted} parameter's value (which prints as {@code <redacted>}).
     */
    static boolean isRedacted(Object value) {
        return value == EnhancedCodeSupport.REDACTED;
    }
}
