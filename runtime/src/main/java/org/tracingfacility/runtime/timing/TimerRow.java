package org.tracingfacility.runtime.timing;

import java.util.Arrays;

/**
 * The layout of one timer's statistics in a {@code long[]}: counters followed by the
 * histogram buckets. One thread writes a row; reports read and sum rows of all threads.
 *
 * <p>Durations are in the clock's own unit ({@link TimingClock#now()}), converted to
 * nanoseconds only by the report: recording a call is then additions and comparisons.
 */
final class TimerRow {
    /**
     * Invocations that sampling left unmeasured. The measured ones are not counted apart:
     * their number is the sum of the histogram's buckets ({@link #timed}), one add fewer
     * per call.
     */
    static final int UNTIMED = 0;
    /** Sum, minimum and maximum of the measured durations. */
    static final int TOTAL = 1;
    static final int MIN = 2;
    static final int MAX = 3;
    /** Start of the open interval of an interval timer on this thread; 0 when none is open. */
    static final int OPEN_SINCE = 4;
    static final int BUCKETS = 5;
    static final int LENGTH = BUCKETS + Histogram.BUCKETS;

    private TimerRow() {
    }

    static long[] create() {
        long[] row = new long[LENGTH];
        row[MIN] = Long.MAX_VALUE;
        return row;
    }

    /**
     * Counts one duration; no allocation, no atomics: the row belongs to the calling thread.
     * No JDK method either ({@code Math.min} has bytecode the agent may trace; see
     * {@link Histogram#bucket}).
     */
    static void record(long[] row, long duration) {
        row[TOTAL] += duration;
        long min = row[MIN];
        row[MIN] = duration < min ? duration : min;
        long max = row[MAX];
        row[MAX] = duration > max ? duration : max;
        row[BUCKETS + Histogram.bucket(duration)]++;
    }

    /** Counts an invocation whose duration was not measured. */
    static void countUntimed(long[] row) {
        row[UNTIMED]++;
    }

    /** Invocations whose duration was measured: all of them unless sampling. */
    static long timed(long[] row) {
        long timed = 0;
        for (int i = BUCKETS; i < LENGTH; i++) {
            timed += row[i];
        }
        return timed;
    }

    /** Invocations, timed or not. */
    static long invocations(long[] row) {
        return timed(row) + row[UNTIMED];
    }

    /** Adds {@code from}'s statistics to {@code into}. */
    static void addTo(long[] from, long[] into) {
        into[UNTIMED] += from[UNTIMED];
        into[TOTAL] += from[TOTAL];
        into[MIN] = Math.min(into[MIN], from[MIN]);
        into[MAX] = Math.max(into[MAX], from[MAX]);
        for (int i = BUCKETS; i < LENGTH; i++) {
            into[i] += from[i];
        }
    }

    static void reset(long[] row) {
        Arrays.fill(row, 0L);
        row[MIN] = Long.MAX_VALUE;
    }
}
