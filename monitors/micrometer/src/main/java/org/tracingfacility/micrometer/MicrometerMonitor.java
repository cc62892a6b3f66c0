package org.tracingfacility.micrometer;

import org.tracingfacility.runtime.MethodMonitor;
import org.tracingfacility.runtime.TimingPointType;

/**
 * Times the calls of one class's monitored methods into their {@link MethodTimers}. Wants no
 * arguments. A call's outcome is the last exception reported in it: one thrown and caught
 * inside the method itself still counts as its outcome (enhanced code reports the throw, and
 * the exit does not say how the method ended).
 */
final class MicrometerMonitor implements MethodMonitor {
    /** Shared by all monitors: a call's start is pushed by one monitor and popped by the same. */
    private static final ThreadLocal<CallStack> CALLS = ThreadLocal.withInitial(CallStack::new);

    private final Class<?> cls;
    private final MethodTimers[] timers;

    MicrometerMonitor(Class<?> cls, MethodTimers[] timers) {
        this.cls = cls;
        this.timers = timers;
    }

    @Override
    public Class<?> myClass() {
        return cls;
    }

    @Override
    public void enter(int ident, Object... args) {
        CALLS.get().push(System.nanoTime());
    }

    @Override
    public void exit(int ident) {
        end(ident);
    }

    @Override
    public void exit(int ident, Object result) {
        end(ident);
    }

    @Override
    public void exception(int ident, Throwable thr) {
        CALLS.get().thrown(thr);
    }

    @Override
    public void info(Object[] args, int callerIdent, int selfIdent, TimingPointType tpType) {
        // Info points are not calls.
    }

    @Override
    public void clear() {
        // The meters belong to the registry; clearing them is the registry's business.
    }

    @Override
    public boolean wantsArguments() {
        return false;
    }

    private void end(int ident) {
        long now = System.nanoTime();
        CallStack calls = CALLS.get();
        if (calls.isEmpty()) {
            return; // an exit without its entry: enhanced code never does this
        }
        long start = calls.pop();
        Throwable thrown = calls.poppedThrown();
        if (ident >= 0 && ident < timers.length) {
            timers[ident].record(now - start, thrown);
        }
    }
}
