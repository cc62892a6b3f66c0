package org.tracingfacility.runtime;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.tracingfacility.runtime.support.ThreadsAtWork;
import org.tracingfacility.runtime.timing.TimingFactory;

/**
 * Keeps monitors from re-entering themselves. While a guarded monitor handles an event on a
 * thread, every event that its own work raises on that thread (dprint formatting an argument
 * whose {@code toString} is monitored, say) is dropped and counted, never handed to a
 * monitor: that could recurse without end.
 *
 * <p>The mark is the one the JDK's traced methods read, {@link ThreadsAtWork}: events raised
 * while a thread is at work for any reason (a guarded site's monitor, TF's own work) are
 * dropped and counted the same way, and a JDK method a monitor here calls reports nothing.
 *
 * <p>The registry wraps each monitor it creates, in this one place for every monitor, so a
 * monitor need not guard itself. With no monitor attached there is no guard and no cost.
 * Monitors that TF knows never call application code ({@code timing}, {@code jfr},
 * {@code noOp}) go unwrapped, keeping their hot path free of the mark.
 */
final class ReentryGuard implements MethodMonitor {
    private static final String JFR_FACTORY = "org.tracingfacility.runtime.jfr.JfrFactory";

    private static final AtomicLong DROPPED = new AtomicLong();
    /** Whether the first dropped event was explained; under the class's lock (see {@link #firstDrop}). */
    private static boolean told;

    private final MethodMonitor monitor;

    private ReentryGuard(MethodMonitor monitor) {
        this.monitor = monitor;
    }

    /** {@code monitor}, guarded unless all of {@code factories} are known to call no application code. */
    static MethodMonitor guard(MethodMonitor monitor, List<MethodMonitorFactory> factories) {
        if (monitor == null) {
            return null;
        }
        for (MethodMonitorFactory factory : factories) {
            if (mayCallApplicationCode(factory)) {
                return new ReentryGuard(monitor);
            }
        }
        return monitor;
    }

    /**
     * The monitor {@code monitor} guards, or {@code monitor} itself. A guarded site's monitor
     * ({@code support.GuardedMonitor}) keeps its thread {@linkplain ThreadsAtWork at work} instead, which
     * this guard honours too: one mark per thread, and no thread-local lookup on the path of
     * the JDK's traced methods.
     */
    static MethodMonitor unguarded(MethodMonitor monitor) {
        return monitor instanceof ReentryGuard ? ((ReentryGuard) monitor).monitor : monitor;
    }

    /** How many events were dropped because a monitor's own work raised them. */
    static long dropped() {
        return DROPPED.get();
    }

    /**
     * Runs work of TF's own that may call application code outside any monitor event (such as
     * {@link OperationTracer#describe()} formatting arguments), as if a monitor were at work.
     */
    static <T> T atWork(Supplier<T> work) {
        boolean recorded = ThreadsAtWork.enter();
        try {
            return work.get();
        } finally {
            if (recorded) {
                ThreadsAtWork.leave();
            }
        }
    }

    private static boolean mayCallApplicationCode(MethodMonitorFactory factory) {
        // The JFR factory by name: naming its class would load jdk.jfr where it may be missing.
        return !(factory instanceof TimingFactory || factory == MethodMonitorFactoryDefaults.noOp()
                || factory.getClass().getName().equals(JFR_FACTORY));
    }

    @Override
    public Class<?> myClass() {
        return monitor.myClass();
    }

    @Override
    public boolean wantsArguments() {
        return monitor.wantsArguments();
    }

    @Override
    public void clear() {
        monitor.clear();
    }

    @Override
    public long enterWithToken(int ident, Object... args) {
        if (!ThreadsAtWork.enterIfIdle()) {
            drop(ident);
            return 0L;
        }
        try {
            return monitor.enterWithToken(ident, args);
        } finally {
            ThreadsAtWork.leave();
        }
    }

    @Override
    public void exitWithToken(int ident, long token) {
        if (!ThreadsAtWork.enterIfIdle()) {
            drop(ident);
            return;
        }
        try {
            monitor.exitWithToken(ident, token);
        } finally {
            ThreadsAtWork.leave();
        }
    }

    @Override
    public void exitWithToken(int ident, Object result, long token) {
        if (!ThreadsAtWork.enterIfIdle()) {
            drop(ident);
            return;
        }
        try {
            monitor.exitWithToken(ident, result, token);
        } finally {
            ThreadsAtWork.leave();
        }
    }

    @Override
    public void enter(int ident, Object... args) {
        if (!ThreadsAtWork.enterIfIdle()) {
            drop(ident);
            return;
        }
        try {
            monitor.enter(ident, args);
        } finally {
            ThreadsAtWork.leave();
        }
    }

    @Override
    public void exit(int ident) {
        if (!ThreadsAtWork.enterIfIdle()) {
            drop(ident);
            return;
        }
        try {
            monitor.exit(ident);
        } finally {
            ThreadsAtWork.leave();
        }
    }

    @Override
    public void exit(int ident, Object result) {
        if (!ThreadsAtWork.enterIfIdle()) {
            drop(ident);
            return;
        }
        try {
            monitor.exit(ident, result);
        } finally {
            ThreadsAtWork.leave();
        }
    }

    @Override
    public void info(Object[] args, int callerIdent, int selfIdent, TimingPointType tpType) {
        if (!ThreadsAtWork.enterIfIdle()) {
            drop(selfIdent);
            return;
        }
        try {
            monitor.info(args, callerIdent, selfIdent, tpType);
        } finally {
            ThreadsAtWork.leave();
        }
    }

    @Override
    public void exception(int ident, Throwable thr) {
        if (!ThreadsAtWork.enterIfIdle()) {
            drop(ident);
            return;
        }
        try {
            monitor.exception(ident, thr);
        } finally {
            ThreadsAtWork.leave();
        }
    }

    /**
     * True for the first caller only. A lock, not an {@code AtomicBoolean}: its class
     * initialization builds a {@code VarHandle}, milliseconds of an agent's start-up, paid here
     * when the registry first guards a monitor.
     */
    private static synchronized boolean firstDrop() {
        if (told) {
            return false;
        }
        told = true;
        return true;
    }

    /** Counts a dropped event; the first one in the process is explained on standard error. */
    private void drop(int ident) {
        DROPPED.incrementAndGet();
        if (firstDrop()) {
            Class<?> cls = monitor.myClass();
            String method;
            try {
                method = cls.getName() + "." + MethodMonitorRegistry.methodName(cls, ident);
            } catch (IllegalArgumentException e) {
                method = cls.getName() + " #" + ident;
            }
            System.err.println("TF: " + method + " ran inside a monitor's own work (e.g. dprint calling a"
                    + " monitored toString()); events raised there are dropped, not monitored, to avoid"
                    + " recursion (counted in the management bean's DroppedReentrantEvents)");
        }
    }
}
