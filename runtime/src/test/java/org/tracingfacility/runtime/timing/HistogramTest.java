package org.tracingfacility.runtime.timing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
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
        assertTrue(nanos < Histogram.upperBound(bucket), nanos + " above its bucket " + bucket);
        if (bucket < Histogram.BUCKETS - 1) { // the last one is open-ended
            long width = Histogram.upperBound(bucket) - Histogram.lowerBound(bucket);
            assertTrue(width <= Math.max(1, nanos / 8), nanos + " in a bucket " + width + " wide");
        }
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
            long estimate = Histogram.quantile(row, TimerRow.BUCKETS, count, q, row[TimerRow.MIN], row[TimerRow.MAX]);
            assertTrue(Math.abs(estimate - exact) <= exact * 0.0625, "p" + q + ": " + estimate + " vs " + exact);
        }
    }

    /**
     * Durations of 1000 and 1020 share the bucket [960, 1024), whose middle (992) is below
     * both: reported as the middle and then kept within [min, max], every percentile was the
     * minimum, below the mean of 1012.
     */
    @Test
    void percentilesAreInterpolatedWithinTheirBucket() {
        long[] row = TimerRow.create();
        for (int i = 0; i < 100; i++) {
            TimerRow.record(row, i < 40 ? 1000 : 1020);
        }
        TimingReport.Row report = TimingReport.Row.of("m", row);
        long mean = row[TimerRow.TOTAL] / 100;

        assertEquals(1012, mean);
        assertEquals(1010, quantile(row, 0.50), "between the minimum and the exact median, 1020");
        assertEquals(1018, quantile(row, 0.90));
        assertEquals(1020, quantile(row, 0.99), "not below the mean");
        assertEquals(1000, quantile(row, 0.0), "the minimum, exactly");
        assertEquals(1020, quantile(row, 1.0), "the maximum, exactly");
        assertEquals(TimingClock.toNanos(1010), report.p50Nanos());
    }

    @Test
    void aPercentileNeverLeavesTheMinimumAndMaximum() {
        long[] row = TimerRow.create();
        TimerRow.record(row, 100_003); // alone in the bucket [98304, 106496)
        for (double q : new double[] {0.0, 0.5, 0.99, 1.0}) {
            assertEquals(100_003, quantile(row, q));
        }
        TimerRow.record(row, 100_001);
        assertEquals(100_001, quantile(row, 0.5));
        assertEquals(100_003, quantile(row, 0.99));
    }

    private static long quantile(long[] row, double fraction) {
        return Histogram.quantile(row, TimerRow.BUCKETS, TimerRow.invocations(row), fraction,
                row[TimerRow.MIN], row[TimerRow.MAX]);
    }

    @Test
    void durationsPrintWithThreeSignificantDigits() {
        assertEquals("999 ns", TimingReport.duration(999));
        assertEquals("1.00 us", TimingReport.duration(1_000));
        assertEquals("1.00 ms", TimingReport.duration(999_999));
        assertEquals("20.5 ms", TimingReport.duration(20_512_345));
        assertEquals("3.00 s", TimingReport.duration(3_000_000_000L));
    }

    /** Against {@link BigDecimal} rounding to three significant digits, half up: the oracle. */
    @Test
    void threeDigitsRoundsAsBigDecimalDoes() {
        java.util.Random random = new java.util.Random(50);
        long[] edges = {1_000, 1_004, 1_005, 9_994, 9_995, 9_999, 99_949, 99_950, 999_499, 999_500_000L,
            999_499_999L, 1_000_000_000_000L, 1_234_500_000_000L, 9_999_700_000_000L, 99_950_000_000_000L, Long.MAX_VALUE};
        for (int i = 0; i < 20_000 + edges.length; i++) {
            long nanos = i < edges.length ? edges[i] : 1_000 + (random.nextLong() >>> 1 >>> random.nextInt(60));
            long unit = nanos < 999_500 ? 1_000 : nanos < 999_500_000 ? 1_000_000 : 1_000_000_000;
            BigDecimal value = BigDecimal.valueOf(nanos).divide(BigDecimal.valueOf(unit));
            BigDecimal rounded = value.round(new MathContext(3, RoundingMode.HALF_UP));
            int integerDigits = rounded.precision() - rounded.scale();
            String expected = rounded.setScale(Math.max(0, 3 - integerDigits), RoundingMode.HALF_UP).toPlainString();
            assertEquals(expected, TimingReport.threeDigits(nanos, unit), nanos + " ns in units of " + unit);
        }
    }
}
