package org.tracingfacility.runtime.timing;

import org.tracingfacility.runtime.TimingPointType;
import org.tracingfacility.runtime.support.SelfGuardedMonitor;
import org.tracingfacility.runtime.support.ThreadKeys;
import org.tracingfacility.runtime.support.ThreadsAtWork;

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
 * <p>The look-up: the monitor keeps a few claims, each at the slot picked by the key
 * ({@link ThreadKeys}) of the thread that made it or the next free one, each with its
 * thread's recorder and the recorder's rows of this monitor's methods by identifier. A
 * thread at its home slot finds its row by reading that slot, comparing the claim's thread
 * with {@code Thread.currentThread()} (a C2 intrinsic, as the key's reads are) and reading
 * one array slot; a thread whose home another thread holds searches the slots after it,
 * and with every slot held by threads alive, pays the factory's {@code ThreadLocal} and the
 * recorder's index. Each thread still writes only its
 * own recorder. When a claim's thread has ended and the factory has folded its statistics
 * away (at the next report, or when a new thread starts timing), the next thread of that
 * slot takes it over; until then the monitor keeps the ended {@code Thread} object and its
 * recorder reachable. (One claim per monitor, the first thread's, left every other thread
 * the slow way: a JDK class traced by the agent is often first used by another thread than
 * the one that calls it most.)
 *
 * <p>Self-guarded ({@link SelfGuardedMonitor}): a class the agent traced gets this monitor
 * without the per-thread mark around each call. What a call runs once its thread has a claim
 * and a row is TF's code, the clock (JFR's tick counter read directly, or
 * {@code System.nanoTime()}) and array arithmetic; the ways to a claim and a row (the
 * factory's {@code ThreadLocal}, allocations, {@code Arrays.copyOf}) run {@linkplain
 * ThreadsAtWork#enter() at work}, so whichever JDK classes are traced, nothing here reaches a
 * monitor. The classes of the fast path are loaded by the factory as it creates the monitor.
 *
 * <p>This class times every invocation; {@link Sampled} one in N.
 */
class TimingMonitor implements SelfGuardedMonitor {
    /** Claim slots per monitor, a power of two. */
    private static final int CLAIMS = 8;

    private final Class<?> cls;
    private final TimingFactory factory;
    /** Timer of each method identifier; -1 for info methods. */
    private final int[] methodTimers;
    /** Interval timer of each info method identifier; -1 for monitored methods. */
    private final int[] intervalTimers;
    /**
     * The claims by slot, each thread's at its home ({@code ThreadKeys.current() &
     * (CLAIMS - 1)}) or the first slot after it that was free: thread keys wrap around the
     * slots as threads come and go, onto the slots of threads that live on. Null until a
     * thread makes one. Slots are read and written without synchronization: a thread only
     * ever takes a claim for its own when the claim's (final) thread is itself, so a stale or
     * racing value just means the slow way.
     */
    private final Owner[] claims = new Owner[CLAIMS];

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
        ThreadRecorder recorder = recorder();
        if (recorder != null) {
            recorder.enter();
        }
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
        ThreadRecorder recorder = recorder();
        if (recorder == null) {
            return;
        }
        if (tpType == TimingPointType.ENTER) {
            recorder.openInterval(timer, now);
        } else {
            recorder.closeInterval(timer, now);
        }
    }

    @Override
    public void exit(int ident) {
        exitPlain(ident);
    }

    @Override
    public void exit(int ident, Object result) {
        exitPlain(ident);
    }

    private void exitPlain(int ident) {
        ThreadRecorder recorder = recorder();
        if (recorder != null) {
            recorder.exit(timerOf(ident));
        }
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
     * The calling thread's statistics row for a method, null for an info method. A thread
     * with a claim finds it in its slot: an identity hash, a compare of
     * {@code Thread.currentThread()} and two array slots.
     */
    final long[] row(int ident) {
        Owner claim = claims[home()];
        if (claim != null && claim.thread == Thread.currentThread() && ident >= 0 && ident < claim.rows.length) {
            long[] row = claim.rows[ident];
            if (row != null) {
                return row;
            }
        }
        return rowAway(ident);
    }

    /** {@link #row} of a thread whose claim is not at its home slot, or who has none (or no row yet). */
    private long[] rowAway(int ident) {
        Owner claim = claimOfCurrentThread();
        if (claim != null && ident >= 0 && ident < claim.rows.length) {
            long[] row = claim.rows[ident];
            if (row != null) {
                return row;
            }
        }
        return rowOfAnyThread(ident);
    }

    /** Whether the calling thread has a claim here: finds its rows without the factory's index. */
    boolean claimedByCurrentThread() {
        return claimOfCurrentThread() != null;
    }

    /** The calling thread's claim, searched from its home slot on; null when it has none. */
    private Owner claimOfCurrentThread() {
        Thread current = Thread.currentThread();
        int home = home();
        for (int probe = 0; probe < CLAIMS; probe++) {
            Owner claim = claims[(home + probe) & (CLAIMS - 1)];
            if (claim != null && claim.thread == current) {
                return claim;
            }
        }
        return null;
    }

    /**
     * The slow way: the recorder's own index, and for a thread with a claim the first use of
     * a method. At work: it may create the thread's recorder and row. Null (the event is
     * dropped, as a guarded site drops it) when no slot is free to mark the thread at work:
     * unmarked, what this runs could reach a monitor.
     */
    private long[] rowOfAnyThread(int ident) {
        int timer = timerOf(ident);
        if (timer < 0 || !ThreadsAtWork.enter()) {
            return null;
        }
        try {
            long[] row = recorder().row(timer); // at work already: the recorder is found
            Owner claim = claimOfCurrentThread();
            if (claim != null) {
                claim.rows[ident] = row;
            }
            return row;
        } finally {
            ThreadsAtWork.leave();
        }
    }

    /**
     * The calling thread's recorder: from its claim, without a {@code ThreadLocal} look-up;
     * null when the thread has none and cannot be marked at work (no slot free).
     */
    final ThreadRecorder recorder() {
        Owner claim = claims[home()];
        if (claim != null && claim.thread == Thread.currentThread()) {
            return claim.recorder;
        }
        claim = claimOfCurrentThread();
        return claim != null ? claim.recorder : unclaimed();
    }

    /**
     * The recorder of a thread without a claim here, from the factory (at work: its
     * {@code ThreadLocal} and what creating a recorder runs); the thread claims the first slot
     * from its home on that nobody holds, or whose thread has ended and been folded away. Null
     * when no slot is free to mark the thread at work: the event is dropped.
     */
    private ThreadRecorder unclaimed() {
        if (!ThreadsAtWork.enter()) {
            return null;
        }
        try {
            ThreadRecorder mine = factory.recorder();
            int home = home();
            for (int probe = 0; probe < CLAIMS; probe++) {
                int slot = (home + probe) & (CLAIMS - 1);
                Owner claim = claims[slot];
                if (claim == null || claim.recorder.retired) {
                    claims[slot] = new Owner(mine, methodTimers.length);
                    break;
                }
            }
            return mine;
        } finally {
            ThreadsAtWork.leave();
        }
    }

    /**
     * Loads and initializes what a call's fast path runs (the clock, the row's arithmetic),
     * as the factory creates a monitor: at work, where the registry creates monitors. Loaded
     * first inside a traced method, a class would initialize there, outside any mark, and
     * {@link TimingClock}'s initialization runs JDK code.
     */
    static void loadFastPath() {
        TimerRow.record(TimerRow.create(), TimingClock.now() - TimingClock.now());
    }

    /** Where the calling thread's claim is, or the search for it starts. */
    private static int home() {
        return ThreadKeys.current() & (CLAIMS - 1);
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
            ThreadRecorder recorder = recorder();
            return recorder == null ? ThreadRecorder.NOT_TIMED : recorder.start();
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
     * One thread's claim on a slot of the monitor: its recorder, and its rows of the
     * monitor's methods by identifier, which only that thread fills in (they are the
     * recorder's rows, which reports read). A new claim replaces a whole claim, never a part
     * of one; its fields are final, so a claim read without synchronization is complete.
     */
    private static final class Owner {
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
