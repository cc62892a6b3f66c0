package org.tracingfacility.runtime.timing;

/**
 * Log-linear buckets for durations in the clock's unit (nanoseconds, or ticks of JFR's
 * counter): exact below 8, then eight buckets per power of two, so a percentile read from
 * the buckets is within 6.25% of the true value. Durations from 2^46 up (7.8 hours of
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
     * The bucket of a duration; negative durations (a clock step) count as zero. Without
     * branches: below 16 the shift is 0 and the bucket is the duration itself; from there on
     * the top four bits of the duration, its leading one included, pick one of the eight
     * sub-buckets of its power of two.
     */
    static int bucket(long nanos) {
        long duration = Math.max(nanos, 0);
        int shift = 63 - SUB_BUCKET_BITS - Long.numberOfLeadingZeros(duration | SUB_BUCKETS);
        int bucket = (shift << SUB_BUCKET_BITS) + (int) (duration >>> shift);
        return Math.min(bucket, BUCKETS - 1);
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

    /** The middle of a bucket: the estimate reported for durations that fell in it. */
    static long midpoint(int bucket) {
        if (bucket < SUB_BUCKETS) {
            return bucket;
        }
        long low = lowerBound(bucket);
        long width = 1L << (bucket / SUB_BUCKETS + SUB_BUCKET_BITS - 1 - SUB_BUCKET_BITS);
        return low + width / 2;
    }

    /**
     * The estimate of the {@code fraction} quantile (0..1) of the durations counted in
     * {@code counts[offset .. offset + BUCKETS)}; 0 if there are none.
     */
    static long quantile(long[] counts, int offset, long total, double fraction) {
        if (total <= 0) {
            return 0;
        }
        long rank = Math.max(1, (long) Math.ceil(fraction * total));
        long seen = 0;
        for (int b = 0; b < BUCKETS; b++) {
            seen += counts[offset + b];
            if (seen >= rank) {
                return midpoint(b);
            }
        }
        return midpoint(BUCKETS - 1);
    }
}
