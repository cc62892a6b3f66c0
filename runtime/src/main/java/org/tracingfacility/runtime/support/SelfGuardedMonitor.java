package org.tracingfacility.runtime.support;

import org.tracingfacility.runtime.MethodMonitor;

/**
 * A built-in monitor that keeps its own calls out of traced code, so that a guarded site
 * (classes the agent traced) hands it out as it is, without {@link GuardedMonitor}'s mark at
 * entry and at exit. For TF's own monitors ({@code timing}, {@code profile}, {@code noOp});
 * not for users, whose monitors may call anything and are always guarded.
 *
 * <p>What the mark is for is that nothing a monitor does reaches a monitor again
 * (ARCHITECTURE, "Tracing the JDK"). A monitor of this type promises the same by construction:
 *
 * <ul>
 *   <li>on its fast path (a call on a thread that has used it before) each event method runs
 *       only code the agent never traces: TF's own classes (which the agent refuses), native
 *       methods, which have no bytecode ({@code Thread.currentThread}, the thread's key
 *       ({@link ThreadKeys}), {@code Double.doubleToRawLongBits}, JFR's tick
 *       counter read directly, not through a method handle, whose invokers are JDK code),
 *       and array and field accesses. Not {@code Math.min} and its kind: C2 compiles them to
 *       instructions, but the interpreter runs their bytecode, traced like any other
 *       ({@code AttachIT} tracing {@code java.**} overflowed the stack there);
 *   <li>every other path (a thread's first use: a {@code ThreadLocal}, allocation of its
 *       statistics, a growing array) runs {@linkplain ThreadsAtWork#enter() at work}, so the
 *       JDK methods it calls reach no monitor, or does not run (the event is dropped) when
 *       {@code enter()} finds no slot to mark the thread;
 *   <li>the classes its fast path runs are loaded and initialized when the monitor is created,
 *       at work: not first inside a traced method;
 *   <li>it {@linkplain MethodMonitor#wantsArguments() wants no arguments}, so generated code
 *       boxes nothing for it (boxing runs {@code Integer.valueOf}, which may be traced);
 *   <li>it throws nothing on any path ({@link GuardedMonitor} would have caught it).
 * </ul>
 *
 * <p>{@link GuardedSites#monitor} still answers null while the thread is at work, reading the
 * mark without setting it; {@link EnhancedCodeSupport}'s exits by a throwable (whose
 * {@code ThreadLocal} may be traced) set it for this type as for {@link GuardedMonitor}.
 */
public interface SelfGuardedMonitor extends MethodMonitor {
}
