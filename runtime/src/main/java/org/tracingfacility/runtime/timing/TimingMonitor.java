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
 *
 * <p>The look-up: the monitor remembers one thread, its owner (the first to use it), with
 * that thread's recorder and the recorder's rows of this monitor's methods by identifier.
 * The owner finds its row by comparing {@code Thread.currentThread()} (a C2 intrinsic) with
 * the remembered thread and reading one array slot; every other thread pays that compare and
 * then the factory's {@code ThreadLocal} and the recorder's index. Each thread still writes
 * only its own recorder. When the owner has ended and the factory has folded its statistics
 * away (at the next report, or when a new thread starts timing), the next thread to use the
 * monitor becomes its owner; until then the monitor keeps the ended {@code Thread} object
 * and its recorder reachable.
 *
 * <p>This class times every invocation; {@link Sampled} one in N.
 */
class TimingMonitor implements MethodMonitor {
    private final Class<?> cls;
    private final TimingFactory factory;
    /** Timer of each method identifier; -1 for info methods. */
    private final int[] methodTimers;
    /** Interval timer of each info method identifier; -1 for monitored methods. */
    private final int[] intervalTimers;
    /**
     * The owner's claim ({@link Owner#NOBODY} until a thread makes one). Read and written
     * without synchronization: a thread only ever takes a claim for its own when the claim's
     * (final) thread is itself, so a stale or racing value just means the slow way.
     */
    private Owner owner = Owner.NOBODY;

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
        recorder().enter();
    }

    /** The start time: every invocation is timed, so no per-thread state is needed here. */
    @Override
    public long enterWithToken(int ident, Object... args) {
        return TimingClock.now();
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
            recorder().openInterval(timer, now);
        } else {
            recorder().closeInterval(timer, now);
        }
    }

    @Override
    public void exit(int ident) {
        recorder().exit(timerOf(ident));
    }

    @Override
    public void exit(int ident, Object result) {
        recorder().exit(timerOf(ident));
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
    void end(int ident, long start) {
        long now = TimingClock.now(); // first: the look-ups below are not the method's time
        long[] row = row(ident);
        if (row != null) {
            TimerRow.record(row, now - start);
        }
    }

    /**
     * The calling thread's statistics row for a method, null for an info method. The owner
     * finds it in its claim: a compare of {@code Thread.currentThread()} and two array slots.
     */
    final long[] row(int ident) {
        Owner claim = owner;
        if (claim.thread == Thread.currentThread() && ident >= 0 && ident < claim.rows.length) {
            long[] row = claim.rows[ident];
            if (row != null) {
                return row;
            }
        }
        return rowOfAnyThread(ident);
    }

    /** The slow way: the recorder's own index, and for the owner the first use of a method. */
    private long[] rowOfAnyThread(int ident) {
        int timer = timerOf(ident);
        if (timer < 0) {
            return null;
        }
        long[] row = recorder().row(timer);
        Owner claim = owner;
        if (claim.thread == Thread.currentThread()) {
            claim.rows[ident] = row;
        }
        return row;
    }

    /** The calling thread's recorder: the owner's without a {@code ThreadLocal} look-up. */
    final ThreadRecorder recorder() {
        Owner claim = owner;
        return claim.thread == Thread.currentThread() ? claim.recorder : notOwner(claim);
    }

    /** Another thread's recorder, from the factory; it claims the monitor if nobody (alive) has. */
    private ThreadRecorder notOwner(Owner claim) {
        ThreadRecorder mine = factory.recorder();
        if (claim.recorder.retired) {
            owner = new Owner(mine, methodTimers.length);
        }
        return mine;
    }

    private int timerOf(int ident) {
        return ident >= 0 && ident < methodTimers.length ? methodTimers[ident] : -1;
    }

    /** Times one invocation in N on each thread, and counts the others. */
    static final class Sampled extends TimingMonitor {
        Sampled(Class<?> cls, TimingFactory factory, int[] methodTimers, int[] intervalTimers) {
            super(cls, factory, methodTimers, intervalTimers);
        }

        /** The start time, or {@link ThreadRecorder#NOT_TIMED} when sampling skips this call. */
        @Override
        public long enterWithToken(int ident, Object... args) {
            return recorder().start();
        }

        @Override
        void end(int ident, long start) {
            if (start != ThreadRecorder.NOT_TIMED) {
                super.end(ident, start);
                return;
            }
            long[] row = row(ident);
            if (row != null) {
                TimerRow.countUntimed(row);
            }
        }
    }

    /**
     * One thread's claim on the monitor: its recorder, and its rows of the monitor's methods
     * by identifier, which only that thread fills in (they are the recorder's rows, which
     * reports read). A new claim replaces a whole claim, never a part of one.
     */
    private static final class Owner {
        static final Owner NOBODY = new Owner(ThreadRecorder.NOBODY, 0);

        final Thread thread;
        final ThreadRecorder recorder;
        final long[][] rows;

        Owner(ThreadRecorder recorder, int methods) {
            this.thread = recorder.thread;
            this.recorder = recorder;
            this.rows = new long[methods][];
        }
    }
}
