package org.tracingfacility.micrometer;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.Tags;
import java.util.List;
import java.util.Objects;
import org.tracingfacility.runtime.MethodGroups;
import org.tracingfacility.runtime.MethodMonitor;
import org.tracingfacility.runtime.MethodMonitorFactory;
import org.tracingfacility.runtime.MethodMonitorRegistry;

/**
 * Records every invocation of a monitored method in a Micrometer {@code Timer} named
 * {@value #METRIC} ({@code tf_method_seconds} in Prometheus), tagged
 * <ul>
 *   <li>{@code class}: the class's full name; {@code method}: the tracing name;
 *   <li>{@code group}: the method's TF annotation(s), simple names;
 *   <li>{@code exception}: the simple name of the exception that ended the call, or {@code none};
 *   <li>{@code outcome}: {@code success} or {@code error}.
 * </ul>
 * Percentile histograms (for Prometheus's {@code histogram_quantile}) or client-side
 * percentiles are off unless asked for. The factory is immutable; {@code with...} return copies.
 */
public final class MicrometerFactory implements MethodMonitorFactory {
    /** The timer's name. */
    public static final String METRIC = "tf.method";

    private final MeterRegistry registry;
    private final boolean percentileHistogram;
    private final double[] percentiles;

    /** Records into {@link Metrics#globalRegistry}. */
    public MicrometerFactory() {
        this(Metrics.globalRegistry);
    }

    /** Records into {@code registry}. */
    public MicrometerFactory(MeterRegistry registry) {
        this(registry, false, new double[0]);
    }

    private MicrometerFactory(MeterRegistry registry, boolean percentileHistogram, double[] percentiles) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.percentileHistogram = percentileHistogram;
        this.percentiles = percentiles.clone();
    }

    /** A copy that publishes a percentile histogram (buckets) with each timer. */
    public MicrometerFactory withPercentileHistogram() {
        return new MicrometerFactory(registry, true, percentiles);
    }

    /**
     * A copy that publishes these percentiles computed in the application, e.g. 0.5, 0.99.
     *
     * @throws IllegalArgumentException for a value outside 0..1
     */
    public MicrometerFactory withPercentiles(double... values) {
        for (double p : values) {
            if (!(p >= 0 && p <= 1)) {
                throw new IllegalArgumentException("a percentile is between 0 and 1, not " + p);
            }
        }
        return new MicrometerFactory(registry, percentileHistogram, values);
    }

    @Override
    public MethodMonitor create(Class<?> cls) {
        List<String> names = MethodMonitorRegistry.methodNames(cls);
        String[] groups = MethodGroups.byIdentifier(cls);
        MethodTimers[] timers = new MethodTimers[names.size()];
        for (int ident = 0; ident < timers.length; ident++) {
            Tags tags = Tags.of("class", cls.getName(), "method", names.get(ident), "group", groups[ident]);
            timers[ident] = new MethodTimers(registry, tags, percentileHistogram, percentiles);
        }
        return new MicrometerMonitor(cls, timers);
    }

    @Override
    public String toString() {
        return "micrometer";
    }
}
