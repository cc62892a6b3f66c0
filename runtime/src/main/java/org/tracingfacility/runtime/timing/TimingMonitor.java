package org.tracingfacility.runtime.timing;

import org.tracingfacility.runtime.MethodMonitor;
import org.tracingfacility.runtime.TimingPointType;

/**
 * Times each monitored method of one class, and the intervals its info methods delimit.
 * Wants no arguments; per call it reads the clock and the thread's recorder and updates
 * plain array slots, allocating nothing.
 */
final class TimingMonitor implements MethodMonitor {
    private final Class<?> cls;
    private final TimingFactory factory;
    /** Timer of each method identifier; -1 for info methods. */
    private final int[] methodTimers;
    /** Interval timer of each info method identifier; -1 for monitored methods. */
    private final int[] intervalTimers;

    TimingMonitor(Class<?> cls, TimingFactory factory, int[] methodTimers, int[] intervalTimers) {
        this.cls = cls;
        this.factory = factory;
        this.methodTimers = methodTimers;
        this.intervalTimers = intervalTimers;
    }

    @Override
    public Class<?> myClass() {
        return cls;
    }

    @Override
    public void enter(int ident, Object... args) {
        factory.recorder().enter();
    }

    @Override
    public void info(Object[] args, int callerIdent, int selfIdent, TimingPointType tpType) {
        if (tpType == TimingPointType.NONE || selfIdent < 0 || selfIdent >= intervalTimers.length) {
            return;
        }
        int timer = intervalTimers[selfIdent];
        if (timer < 0) {
            return;
        }
        long now = TimingClock.now();
        if (tpType == TimingPointType.ENTER) {
            factory.recorder().openInterval(timer, now);
        } else {
            factory.recorder().closeInterval(timer, now);
        }
    }

    @Override
    public void exit(int ident) {
        factory.recorder().exit(timerOf(ident));
    }

    @Override
    public void exit(int ident, Object result) {
        factory.recorder().exit(timerOf(ident));
    }

    @Override
    public void exception(int ident, Throwable thr) {
        // The exit that follows records the duration.
    }

    @Override
    public void clear() {
        factory.clear(methodTimers);
        factory.clear(intervalTimers);
    }

    @Override
    public boolean wantsArguments() {
        return false;
    }

    private int timerOf(int ident) {
        return ident >= 0 && ident < methodTimers.length ? methodTimers[ident] : -1;
    }
}
