package org.tracingfacility.runtime;

/**
 * Receives the events of the monitored methods of one class for one TF annotation.
 *
 * <p>Enhanced code reads its monitor once per invocation and reports every event of that
 * invocation to it, so a monitor replaced while a method runs still sees that invocation's
 * exit. Method identifiers index the class's sorted list of tracing names; see
 * {@link MethodMonitorRegistry#getMethodName(Class, int)}.
 *
 * <p>Monitors are called from application threads, concurrently, and on the application's
 * hot paths: they must be thread-safe and should be cheap. An exception thrown by a monitor
 * reaches the monitored method's caller.
 */
public interface MethodMonitor {
    /** The class for which this monitor was created. */
    Class<?> myClass();

    /**
     * Invoked at the start of a method, before anything in the method runs.
     *
     * @param ident the method identifier
     * @param args the arguments passed to the method, boxed; {@link EnhancedCodeSupport#NO_ARGS}
     *     when {@link #wantsArguments()} is false; a {@code @Redacted} parameter's value is
     *     replaced by {@link EnhancedCodeSupport#REDACTED}
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
     * Whether this monitor looks at argument and result values. When false, enhanced code
     * skips boxing: {@link #enter} receives {@link EnhancedCodeSupport#NO_ARGS} and
     * {@link #exit(int, Object)} receives null, so monitoring allocates nothing per call.
     * Read once per invocation, so it should return a constant.
     */
    default boolean wantsArguments() {
        return true;
    }
}
