package org.tracingfacility.bench;

/**
 * The method as written: about 1 ns of dependent arithmetic (a hash finalizer). Not in any
 * TF group, so the enhancer leaves it alone: the baseline, and the method JFR's method
 * timing instruments in {@link JfrMethodTimingBenchmark}.
 */
public class PlainWork {
    public int work(int x) {
        int h = x * 0x9E3779B1;
        h ^= h >>> 15;
        h *= 0x85EBCA77;
        return h ^ (h >>> 13);
    }
}
