package org.tracingfacility.runtime;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.tracingfacility.runtime.timing.TimingFactory;

/**
 * Keeps monitors from re-entering themselves. While a guarded monitor handles an event on a
 * thread, every event that its own work raises on that thread (dprint formatting an argument
 * whose {@code toString} is monitored, say) is dropped and counted, never handed to a
 * monitor: that could recurse without end.
 *
 * <p>The registry wraps each monitor it creates, in this one place for every monitor, so a
 * monitor need not guard itself. With no monitor attached there is no guard and no cost.
 * Monitors that TF knows never call application code ({@code timing}, {@code jfr},
 * {@code noOp}) go unwrapped, keeping their hot path free of the thread-local lookup.
 */
final class ReentryGuard implements MethodMonitor {
    private static final String JFR_FACTORY = "org.tracingfacility.runtime.jfr.JfrFactory";

    /** Per thread: whether a guarded monitor is at work on it. */
    private static final ThreadLocal<boolean[]> AT_WORK = new ThreadLocal<boolean[]>() {
        @Override
        protected boolean[] initialValue() {
            return new boolean[1];
        }
    };
    private static final AtomicLong DROPPED = new AtomicLong();
    private static final AtomicBoolean TOLD = new AtomicBoolean();

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

    /** How many events were dropped because a monitor's own work raised them. */
    static long dropped() {
        return DROPPED.get();
    }

    /**
     * Runs work of TF's own that may call application code outside any monitor event (such as
     * {@link OperationTracer#describe()} formatting arguments), as if a monitor were at work.
     */
    static <T> T atWork(Supplier<T> work) {
        boolean[] atWork = AT_WORK.get();
        if (atWork[0]) {
            return work.get();
        }
        atWork[0] = true;
        try {
            return work.get();
        } finally {
            atWork[0] = false;
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
        boolean[] atWork = AT_WORK.get();
        if (atWork[0]) {
            drop(ident);
            return 0L;
        }
        atWork[0] = true;
        try {
            return monitor.enterWithToken(ident, args);
        } finally {
            atWork[0] = false;
        }
    }

    @Override
    public void exitWithToken(int ident, long token) {
        boolean[] atWork = AT_WORK.get();
        if (atWork[0]) {
            drop(ident);
            return;
        }
        atWork[0] = true;
        try {
            monitor.exitWithToken(ident, token);
        } finally {
            atWork[0] = false;
        }
    }

    @Override
    public void exitWithToken(int ident, Object result, long token) {
        boolean[] atWork = AT_WORK.get();
        if (atWork[0]) {
            drop(ident);
            return;
        }
        atWork[0] = true;
        try {
            monitor.exitWithToken(ident, result, token);
        } finally {
            atWork[0] = false;
        }
    }

    @Override
    public void enter(int ident, Object... args) {
        boolean[] atWork = AT_WORK.get();
        if (atWork[0]) {
            drop(ident);
            return;
        }
        atWork[0] = true;
        try {
            monitor.enter(ident, args);
        } finally {
            atWork[0] = false;
        }
    }

    @Override
    public void exit(int ident) {
        boolean[] atWork = AT_WORK.get();
        if (atWork[0]) {
            drop(ident);
            return;
        }
        atWork[0] = true;
        try {
            monitor.exit(ident);
        } finally {
            atWork[0] = false;
        }
    }

    @Override
    public void exit(int ident, Object result) {
        boolean[] atWork = AT_WORK.get();
        if (atWork[0]) {
            drop(ident);
            return;
        }
        atWork[0] = true;
        try {
            monitor.exit(ident, result);
        } finally {
            atWork[0] = false;
        }
    }

    @Override
    public void info(Object[] args, int callerIdent, int selfIdent, TimingPointType tpType) {
        boolean[] atWork = AT_WORK.get();
        if (atWork[0]) {
            drop(selfIdent);
            return;
        }
        atWork[0] = true;
        try {
            monitor.info(args, callerIdent, selfIdent, tpType);
        } finally {
            atWork[0] = false;
        }
    }

    @Override
    public void exception(int ident, Throwable thr) {
        boolean[] atWork = AT_WORK.get();
        if (atWork[0]) {
            drop(ident);
            return;
        }
        atWork[0] = true;
        try {
            monitor.exception(ident, thr);
        } finally {
            atWork[0] = false;
        }
    }

    /** Counts a dropped event; the first one in the process is explained on standard error. */
    private void drop(int ident) {
        DROPPED.incrementAndGet();
        if (TOLD.compareAndSet(false, true)) {
            Class<?> cls = monitor.myClass();
            String method;
            try {
                method = cls.getName() + "." + MethodMonitorRegistry.getMethodName(cls, ident);
            } catch (IllegalArgumentException e) {
                method = cls.getName() + " #" + ident;
            }
            System.err.println("TF: " + method + " ran inside a monitor's own work (e.g. dprint calling a"
                    + " monitored toString()); events raised there are dropped, not monitored, to avoid"
                    + " recursion (counted in the management bean's DroppedReentrantEvents)");
        }
    }
}
