package org.tracingfacility.runtime.timing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class HistogramTest {
    @Test
    void everyDurationFallsInTheBucketThatBoundsIt() {
        for (long nanos = 0; nanos < 100_000; nanos++) {
            check(nanos);
        }
        for (long nanos = 100_000; nanos < (1L << 46); nanos = nanos * 3 / 2 + 7) {
            check(nanos);
        }
        assertEquals(Histogram.BUCKETS - 1, Histogram.bucket(Long.MAX_VALUE));
        assertEquals(0, Histogram.bucket(-5), "a clock step backwards counts as zero");
    }

    @Test
    void theBucketsOfPowersOfTwoAndTheirNeighbours() {
        for (int exponent = 0; exponent < 63; exponent++) {
            for (long nanos : new long[] {(1L << exponent) - 1, 1L << exponent, (1L << exponent) + 1}) {
                if (nanos < (1L << 46)) {
                    check(nanos);
                } else {
                    assertEquals(Histogram.BUCKETS - 1, Histogram.bucket(nanos), "from 2^46 up: the last bucket");
                }
            }
        }
        assertEquals(7, Histogram.bucket(7));
        assertEquals(8, Histogram.bucket(8), "exact below 16");
        assertEquals(15, Histogram.bucket(15));
        assertEquals(16, Histogram.bucket(16));
        assertEquals(16, Histogram.bucket(17), "from 16 on, eight buckets per power of two");
        assertEquals(Histogram.BUCKETS - 2, Histogram.bucket((1L << 46) - (1L << 42) - 1));
        assertEquals(Histogram.BUCKETS - 1, Histogram.bucket((1L << 46) - 1));
        assertEquals(0, Histogram.bucket(Long.MIN_VALUE));
    }

    private static void check(long nanos) {
        int bucket = Histogram.bucket(nanos);
        assertTrue(Histogram.lowerBound(bucket) <= nanos, nanos + " below its bucket " + bucket);
        if (bucket + 1 < Histogram.BUCKETS) {
            assertTrue(nanos < Histogram.lowerBound(bucket + 1), nanos + " above its bucket " + bucket);
        }
        long mid = Histogram.midpoint(bucket);
        assertTrue(Math.abs(mid - nanos) <= nanos * 0.0625 + 0.5, nanos + " estimated as " + mid);
    }

    @Test
    void quantilesAreWithinTheBucketError() {
        long[] row = TimerRow.create();
        for (long nanos = 1; nanos <= 100_000; nanos++) {
            TimerRow.record(row, nanos);
        }
        long count = TimerRow.invocations(row);
        assertEquals(100_000, count);
        assertEquals(1, row[TimerRow.MIN]);
        assertEquals(100_000, row[TimerRow.MAX]);
        assertEquals(5_000_050_000L, row[TimerRow.TOTAL]);
        for (double q : new double[] {0.5, 0.9, 0.99}) {
            long exact = (long) (q * 100_000);
            long estimate = Histogram.quantile(row, TimerRow.BUCKETS, count, q);
            assertTrue(Math.abs(estimate - exact) <= exact * 0.0625, "p" + q + ": " + estimate + " vs " + exact);
        }
    }

    @Test
    void durationsPrintWithThreeSignificantDigits() {
        assertEquals("999 ns", TimingReport.duration(999));
        assertEquals("1.00 us", TimingReport.duration(1_000));
        assertEquals("1.00 ms", TimingReport.duration(999_999));
        assertEquals("20.5 ms", TimingReport.duration(20_512_345));
        assertEquals("3.00 s", TimingReport.duration(3_000_000_000L));
    }
}
