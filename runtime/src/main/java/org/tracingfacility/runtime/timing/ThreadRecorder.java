package org.tracingfacility.runtime.timing;

import java.util.Arrays;
import org.tracingfacility.runtime.support.ThreadsAtWork;

/**
 * One thread's timing state for one {@link TimingFactory}: its statistics rows, indexed by
 * timer, its sampling countdown, and the start times of the calls it is in that reached the
 * monitor through plain {@code enter}/{@code exit} (enhanced code hands the start time back
 * as a token instead). Only its thread writes it, so recording needs neither locks nor
 * atomics; reports read it from other threads and may miss the calls of the last moments.
 */
final class ThreadRecorder {
    /** The start of an invocation that sampling leaves untimed. */
    static final long NOT_TIMED = Long.MIN_VALUE;
    /** Where dropped events are counted: no report reads it, so threads may share it. */
    private static final long[] DROPPED = TimerRow.create();

    /**
     * The thread that writes this recorder. Held strongly so
     * that a monitor can compare it with {@code Thread.currentThread()}: the factory drops
     * the recorder, and with it the thread, once the thread has ended and its statistics are
     * folded into the factory's (see {@link #retired}).
     */
    final Thread thread;
    /**
     * Set once the thread has ended and the factory has folded its rows into its own: the
     * recorder is no longer read, and a monitor's claim slot that holds it may pass to another
     * thread. Written under the factory's lock, read without: a monitor that sees it late
     * only hands the slot over later.
     */
    boolean retired;
    private final int sampleEvery;
    private int untilNextSample;
    private long[] starts = new long[32];
    private int depth;
    /** Invocations entered beyond {@link #starts} when it could not grow: exits drop them. */
    private int notKept;
    /** Rows by timer index; a row is created the first time this thread uses the timer. */
    volatile long[][] rows = new long[0][];

    /** @param sampleEvery 1 to time every invocation, N to time one in N (per thread) */
    ThreadRecorder(Thread thread, int sampleEvery) {
        this.thread = thread;
        this.sampleEvery = sampleEvery;
    }

    /**
     * The start of an invocation: the clock ({@link TimingClock}), or {@link #NOT_TIMED} when
     * sampling skips this one.
     */
    long start() {
        if (--untilNextSample <= 0) {
            untilNextSample = sampleEvery;
            return TimingClock.now();
        }
        return NOT_TIMED;
    }

    /** Starts an invocation whose start this recorder keeps, for {@link #exit}. */
    void enter() {
        long start = start();
        if (notKept > 0 || depth == starts.length && !grew()) {
            notKept++;
            return;
        }
        starts[depth++] = start;
    }

    /**
     * Doubles the stack of start times, at work ({@code Arrays.copyOf} may be traced); false
     * when no slot is free to mark the thread at work.
     */
    private boolean grew() {
        if (!ThreadsAtWork.enter()) {
            return false;
        }
        try {
            starts = Arrays.copyOf(starts, depth * 2);
            return true;
        } finally {
            ThreadsAtWork.leave();
        }
    }

    /** Ends the innermost invocation and counts it, with its duration if timed, against {@code timer}. */
    void exit(int timer) {
        if (notKept > 0) {
            notKept--;
            return;
        }
        if (depth == 0) {
            return; // entered before this factory was attached: nothing to pair with
        }
        long start = starts[--depth];
        if (start != NOT_TIMED) {
            long now = TimingClock.now();
            if (timer >= 0) {
                record(timer, now - start);
            }
        } else if (timer >= 0) {
            countUntimed(timer);
        }
    }

    /** Counts an invocation that lasted {@code duration}, in the clock's unit. */
    void record(int timer, long duration) {
        TimerRow.record(row(timer), duration);
    }

    /** Counts an invocation that sampling left untimed. */
    void countUntimed(int timer) {
        TimerRow.countUntimed(row(timer));
    }

    /** @param now a time read by {@link TimingClock#now()} */
    void openInterval(int timer, long now) {
        row(timer)[TimerRow.OPEN_SINCE] = now;
    }

    void closeInterval(int timer, long now) {
        long[] row = row(timer);
        long since = row[TimerRow.OPEN_SINCE];
        if (since != 0) {
            row[TimerRow.OPEN_SINCE] = 0;
            TimerRow.record(row, now - since);
        }
    }

    /** The row of a timer, created on first use. */
    long[] row(int timer) {
        long[][] current = rows;
        if (timer < current.length) {
            long[] row = current[timer];
            if (row != null) {
                return row;
            }
        }
        return createRow(timer);
    }

    /**
     * The slow path, once per thread and timer; at work, as {@code Arrays.copyOf} may be
     * traced. When no slot is free to mark the thread at work, a row that no report reads:
     * the event is dropped.
     */
    private long[] createRow(int timer) {
        if (!ThreadsAtWork.enter()) {
            return DROPPED;
        }
        try {
            long[][] grown = rows;
            if (timer >= grown.length) {
                grown = Arrays.copyOf(grown, Math.max(timer + 1, grown.length * 2));
            }
            long[] row = TimerRow.create();
            grown[timer] = row;
            rows = grown;
            return row;
        } finally {
            ThreadsAtWork.leave();
        }
    }
}
