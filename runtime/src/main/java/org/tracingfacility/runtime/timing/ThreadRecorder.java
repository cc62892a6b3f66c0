package org.tracingfacility.runtime.timing;

import java.lang.ref.WeakReference;
import java.util.Arrays;

/**
 * One thread's timing state for one {@link TimingFactory}: the start times of the monitored
 * calls it is in, and its statistics rows, indexed by timer. Only its thread writes it, so
 * recording needs neither locks nor atomics; reports read it from other threads and may
 * miss the calls of the last moments.
 */
final class ThreadRecorder {
    /** The start of an invocation that sampling leaves untimed. */
    private static final long NOT_TIMED = Long.MIN_VALUE;

    final WeakReference<Thread> thread;
    private final int sampleEvery;
    private int untilNextSample;
    private long[] starts = new long[32];
    private int depth;
    /** Rows by timer index; a row is created the first time this thread uses the timer. */
    volatile long[][] rows = new long[0][];

    /** @param sampleEvery 1 to time every invocation, N to time one in N (per thread) */
    ThreadRecorder(Thread thread, int sampleEvery) {
        this.thread = new WeakReference<>(thread);
        this.sampleEvery = sampleEvery;
    }

    /** Starts an invocation; reads the clock ({@link TimingClock}) unless sampling skips this one. */
    void enter() {
        long start = NOT_TIMED;
        if (--untilNextSample <= 0) {
            untilNextSample = sampleEvery;
            start = TimingClock.now();
        }
        if (depth == starts.length) {
            starts = Arrays.copyOf(starts, depth * 2);
        }
        starts[depth++] = start;
    }

    /** Ends the innermost invocation and counts it, with its duration if timed, against {@code timer}. */
    void exit(int timer) {
        if (depth == 0) {
            return; // entered before this factory was attached: nothing to pair with
        }
        long start = starts[--depth];
        if (start != NOT_TIMED) {
            long now = TimingClock.now();
            if (timer >= 0) {
                TimerRow.record(row(timer), TimingClock.nanosBetween(start, now));
            }
        } else if (timer >= 0) {
            TimerRow.countUntimed(row(timer));
        }
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
            TimerRow.record(row, TimingClock.nanosBetween(since, now));
        }
    }

    private long[] row(int timer) {
        long[][] current = rows;
        if (timer < current.length) {
            long[] row = current[timer];
            if (row != null) {
                return row;
            }
        }
        return createRow(timer);
    }

    /** The slow path, once per thread and timer. */
    private long[] createRow(int timer) {
        long[][] grown = rows;
        if (timer >= grown.length) {
            grown = Arrays.copyOf(grown, Math.max(timer + 1, grown.length * 2));
        }
        long[] row = TimerRow.create();
        grown[timer] = row;
        rows = grown;
        return row;
    }
}
