package org.tracingfacility.runtime.timing;

import org.tracingfacility.runtime.MethodMonitor;
import org.tracingfacility.runtime.TimingPointType;

/**
 * Times each monitored method of one class, and the intervals its info methods delimit.
 * Wants no arguments; per call it reads the clock and the thread's recorder and updates
 * plain array slots, allocating nothing.
 *
 * <p>Enhanced code calls the token methods: the start time travels in the monitored
 * method's frame, so an exactly timed call costs two clock reads and one look-up of the
 * thread's recorder, at exit, where the statistics are. Callers of plain {@code enter} and
 * {@code exit} (a composite monitor) get the same statistics through the recorder's stack
 * of start times.
 */
final class TimingMonitor implements MethodMonitor {
    private final Class<?> cls;
    private final TimingFactory factory;
    /** Every invocation timed: the start needs no per-thread sampling state. */
    private final boolean exact;
    /** Timer of each method identifier; -1 for info methods. */
    private final int[] methodTimers;
    /** Interval timer of each info method identifier; -1 for monitored methods. */
    private final int[] intervalTimers;

    TimingMonitor(Class<?> cls, TimingFactory factory, boolean exact, int[] methodTimers, int[] intervalTimers) {
        this.cls = cls;
        this.factory = factory;
        this.exact = exact;
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

    /** The start time, or {@link ThreadRecorder#NOT_TIMED} when sampling skips this call. */
    @Override
    public long enterWithToken(int ident, Object... args) {
        return exact ? TimingClock.now() : factory.recorder().start();
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
    public void exitWithToken(int ident, long token) {
        end(ident, token);
    }

    @Override
    public void exitWithToken(int ident, Object result, long token) {
        end(ident, token);
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

    /** Counts an invocation that started at {@code start} (a token of {@link #enterWithToken}). */
    private void end(int ident, long start) {
        if (start == ThreadRecorder.NOT_TIMED) {
            int timer = timerOf(ident);
            if (timer >= 0) {
                factory.recorder().countUntimed(timer);
            }
            return;
        }
        long now = TimingClock.now(); // first: the look-ups below are not the method's time
        int timer = timerOf(ident);
        if (timer >= 0) {
            factory.recorder().record(timer, now - start);
        }
    }

    private int timerOf(int ident) {
        return ident >= 0 && ident < methodTimers.length ? methodTimers[ident] : -1;
    }
}
