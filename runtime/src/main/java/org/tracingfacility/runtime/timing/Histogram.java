package org.tracingfacility.runtime.timing;

/**
 * Log-linear buckets for durations in the clock's unit (nanoseconds, or ticks of JFR's
 * counter): exact below 16, then eight buckets per power of two, so a percentile read from
 * the buckets is within an eighth of the true value. Durations from 2^46 up (7.8 hours of
 * 2.5 GHz ticks, 19.5 hours of nanoseconds) share the last bucket.
 */
final class Histogram {
    static final int SUB_BUCKET_BITS = 3;
    private static final int SUB_BUCKETS = 1 << SUB_BUCKET_BITS;
    private static final int MAX_EXPONENT = 45;
    static final int BUCKETS = (MAX_EXPONENT - SUB_BUCKET_BITS + 2) * SUB_BUCKETS;

    private Histogram() {
    }

    /**
     * The bucket of a duration; negative durations (a clock step) count as zero. Below 16 the
     * shift is 0 and the bucket is the duration itself; from there on the top four bits of
     * the duration, its leading one included, pick one of the eight sub-buckets of its power
     * of two.
     *
     * <p>It calls no JDK method with bytecode, not even {@code Math.min} or
     * {@code Long.numberOfLeadingZeros}: C2 replaces those with instructions, but the
     * interpreter runs their bytecode, which the agent may trace, and a timed call runs this
     * outside the per-thread mark ({@link TimingMonitor}). The power of two is the exponent of
     * the duration as a {@code double} ({@code Double.doubleToRawLongBits} is native): exact
     * below 2^53, and every duration from 2^46 on is in the last bucket anyway.
     */
    static int bucket(long nanos) {
        long duration = nanos < 0 ? 0 : nanos;
        int log2 = (int) (Double.doubleToRawLongBits((double) (duration | SUB_BUCKETS)) >>> 52) - 1023;
        int shift = log2 - SUB_BUCKET_BITS;
        int bucket = (shift << SUB_BUCKET_BITS) + (int) (duration >>> shift);
        return bucket < BUCKETS - 1 ? bucket : BUCKETS - 1;
    }

    /** The smallest duration that falls in a bucket. */
    static long lowerBound(int bucket) {
        if (bucket < SUB_BUCKETS) {
            return bucket;
        }
        int exponent = bucket / SUB_BUCKETS + SUB_BUCKET_BITS - 1;
        long sub = bucket % SUB_BUCKETS;
        return (1L << exponent) + (sub << (exponent - SUB_BUCKET_BITS));
    }

    /** The smallest duration above a bucket: the lower bound of the next one. */
    static long upperBound(int bucket) {
        return bucket == BUCKETS - 1 ? Long.MAX_VALUE : lowerBound(bucket + 1);
    }

    /**
     * The estimate of the {@code fraction} quantile (0..1) of the durations counted in
     * {@code counts[offset .. offset + BUCKETS)}, whose exact minimum and maximum are known;
     * 0 if there are none.
     *
     * <p>The quantile is the duration of rank {@code ceil(fraction * total)}. Within the
     * bucket that holds that rank, durations are taken as spread evenly over the part of the
     * bucket that lies within [minimum, maximum], and the estimate is interpolated there: it
     * never leaves [minimum, maximum], a bucket holding only the minimum does not pull every
     * percentile down to it, and a bucket's durations are not all reported as its middle.
     * The error is at most the width of one bucket, an eighth of the value.
     */
    static long quantile(long[] counts, int offset, long total, double fraction, long minimum, long maximum) {
        if (total <= 0) {
            return 0;
        }
        long rank = Math.min(total, Math.max(1, (long) Math.ceil(fraction * total)));
        long below = 0;
        for (int b = 0; b < BUCKETS; b++) {
            long inBucket = counts[offset + b];
            if (below + inBucket >= rank) {
                long low = Math.max(lowerBound(b), minimum);
                long high = Math.max(low, Math.min(upperBound(b) - 1, maximum));
                // The bucket's first rank is its low end, its last rank its high end (exact
                // for the minimum and maximum); a lone duration, the middle.
                double position = inBucket == 1 ? 0.5 : (double) (rank - below - 1) / (inBucket - 1);
                return low + Math.round((high - low) * position);
            }
            below += inBucket;
        }
        return maximum;
    }
}
