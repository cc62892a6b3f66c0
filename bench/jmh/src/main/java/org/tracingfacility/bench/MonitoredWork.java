package org.tracingfacility.bench;

import org.tracingfacility.annotation.TFEnhanced;

/**
 * {@link PlainWork}'s method, monitored in {@link BenchGroup} (the enhancer wants the group on
 * the class as well as on the method). The module's build runs
 * {@code tf-enhance} on the compiled classes before packaging, so the benchmarks call the
 * bytecode the enhancer really generates (an {@code invokedynamic} monitor lookup and the
 * {@code enterWithToken}/{@code exitWithToken} calls), not a hand-written imitation.
 */
@BenchGroup
public class MonitoredWork {
    /**
     * Throws unless this class was enhanced: a jar packaged without the enhancement step
     * would otherwise measure {@link PlainWork} twice and report no overhead at all.
     */
    public static void checkEnhanced() {
        if (!MonitoredWork.class.isAnnotationPresent(TFEnhanced.class)) {
            throw new IllegalStateException(MonitoredWork.class.getName()
                    + " is not enhanced: build the benchmarks with mvn package (it runs tf-enhance)");
        }
    }

    /** The same body as {@link PlainWork#work}. */
    @BenchGroup
    public int work(int x) {
        int h = x * 0x9E3779B1;
        h ^= h >>> 15;
        h *= 0x85EBCA77;
        return h ^ (h >>> 13);
    }
}
