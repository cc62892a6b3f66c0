package org.tracingfacility.opentelemetry;

import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import org.tracingfacility.runtime.MethodMonitorFactory;
import org.tracingfacility.runtime.MethodMonitorFactoryProvider;

/**
 * The factory {@code -Dtf.monitor=Group=opentelemetry} names: spans of
 * {@link io.opentelemetry.api.GlobalOpenTelemetry} (the OpenTelemetry agent's, or the SDK the
 * application registered), with arguments as attributes when
 * {@code -Dtf.opentelemetry.arguments=true}. When that global is the no-op one (no SDK, no
 * agent), it says so in one line ({@link NoSdkWarning}).
 */
public final class OpenTelemetryProvider implements MethodMonitorFactoryProvider {
    static final String ARGUMENTS_PROPERTY = "tf.opentelemetry.arguments";

    @Override
    public String name() {
        return "opentelemetry";
    }

    @Override
    public MethodMonitorFactory create() {
        // Asking for the global sets it up (autoconfigure, when enabled) or fixes it as the no-op one.
        OpenTelemetry global = GlobalOpenTelemetry.get();
        NoSdkWarning.sayIfSpansGoNowhere(global);
        OpenTelemetryFactory factory = new OpenTelemetryFactory(global);
        return Boolean.getBoolean(ARGUMENTS_PROPERTY) ? factory.withArguments() : factory;
    }
}
