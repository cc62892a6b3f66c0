package org.tracingfacility.micrometer;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;

/**
 * The timers of one method: one for calls that returned and one per exception class that
 * ended a call, each registered when first needed, so a method never called (an info method,
 * say) shows no series. The registry keeps one meter per name and tags, so monitors created
 * again share them.
 */
final class MethodTimers {
    private final MeterRegistry registry;
    private final Tags tags;
    private final boolean percentileHistogram;
    private final double[] percentiles;
    /** Null until a call returns; a race registers the same meter twice, harmlessly. */
    private volatile Timer success;
    private final ConcurrentMap<Class<?>, Timer> failures = new ConcurrentHashMap<>();

    MethodTimers(MeterRegistry registry, Tags tags, boolean percentileHistogram, double[] percentiles) {
        this.registry = registry;
        this.tags = tags;
        this.percentileHistogram = percentileHistogram;
        this.percentiles = percentiles;
    }

    void record(long nanos, Throwable thrown) {
        Timer timer;
        if (thrown == null) {
            timer = success;
            if (timer == null) {
                timer = timer("none", "success");
                success = timer;
            }
        } else {
            timer = failures.computeIfAbsent(thrown.getClass(), c -> timer(c.getSimpleName(), "error"));
        }
        timer.record(nanos, TimeUnit.NANOSECONDS);
    }

    private Timer timer(String exception, String outcome) {
        return Timer.builder(MicrometerFactory.METRIC)
                .description("Monitored method calls (TF)")
                .tags(tags.and("exception", exception, "outcome", outcome))
                .publishPercentileHistogram(percentileHistogram)
                .publishPercentiles(percentiles.length == 0 ? null : percentiles)
                .register(registry);
    }
}
