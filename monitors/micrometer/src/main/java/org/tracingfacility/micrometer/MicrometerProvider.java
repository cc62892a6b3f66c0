package org.tracingfacility.micrometer;

import org.tracingfacility.runtime.MethodMonitorFactory;
import org.tracingfacility.runtime.MethodMonitorFactoryProvider;

/**
 * The factory {@code -Dtf.monitor=Group=micrometer} names: timers in Micrometer's global
 * registry (where Spring Boot and most frameworks publish theirs), with a percentile
 * histogram when {@code -Dtf.micrometer.histogram=true}.
 */
public final class MicrometerProvider implements MethodMonitorFactoryProvider {
    static final String HISTOGRAM_PROPERTY = "tf.micrometer.histogram";

    @Override
    public String name() {
        return "micrometer";
    }

    @Override
    public MethodMonitorFactory create() {
        MicrometerFactory factory = new MicrometerFactory();
        return Boolean.getBoolean(HISTOGRAM_PROPERTY) ? factory.withPercentileHistogram() : factory;
    }
}
