package org.tracingfacility.opentelemetry;

import org.tracingfacility.runtime.MethodMonitorFactory;
import org.tracingfacility.runtime.MethodMonitorFactoryProvider;

/**
 * The factory {@code -Dtf.monitor=Group=opentelemetry} names: spans of
 * {@link io.opentelemetry.api.GlobalOpenTelemetry} (the OpenTelemetry agent's, or the SDK the
 * application registered), with arguments as attributes when
 * {@code -Dtf.opentelemetry.arguments=true}.
 */
public final class OpenTelemetryProvider implements MethodMonitorFactoryProvider {
    static final String ARGUMENTS_PROPERTY = "tf.opentelemetry.arguments";

    @Override
    public String name() {
        return "opentelemetry";
    }

    @Override
    public MethodMonitorFactory create() {
        OpenTelemetryFactory factory = new OpenTelemetryFactory();
        return Boolean.getBoolean(ARGUMENTS_PROPERTY) ? factory.withArguments() : factory;
    }
}
