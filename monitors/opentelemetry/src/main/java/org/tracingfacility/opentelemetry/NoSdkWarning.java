package org.tracingfacility.opentelemetry;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.TracerProvider;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The one line {@code -Dtf.monitor=Group=opentelemetry} prints when the global OpenTelemetry it
 * takes its tracer from is the no-op one: no SDK was set up (nor the OpenTelemetry agent), so
 * every span would go nowhere without a word. The factory takes its tracer once, when the
 * monitor is chosen, so what the global is then is what the spans get.
 */
final class NoSdkWarning {
    static final String TEXT = "TF: -Dtf.monitor=...=opentelemetry: no OpenTelemetry SDK is set up, so the spans"
            + " go nowhere; add io.opentelemetry:opentelemetry-sdk-extension-autoconfigure and an exporter"
            + " (io.opentelemetry:opentelemetry-exporter-zipkin) with -Dotel.java.global-autoconfigure.enabled=true"
            + " -Dotel.traces.exporter=zipkin -Dotel.metrics.exporter=none -Dotel.logs.exporter=none,"
            + " or run with the OpenTelemetry Java agent, or call GlobalOpenTelemetry.set before the first"
            + " monitored class loads (README: \"Spans in Zipkin from flags alone\")";

    /** Once per JVM, however many groups name the factory. */
    private static final AtomicBoolean SAID = new AtomicBoolean();

    private NoSdkWarning() {
    }

    /** Prints {@link #TEXT} on standard error, once, if {@code openTelemetry} drops every span. */
    static void sayIfSpansGoNowhere(OpenTelemetry openTelemetry) {
        if (dropsSpans(openTelemetry) && SAID.compareAndSet(false, true)) {
            System.err.println(TEXT);
        }
    }

    /** Whether {@code openTelemetry} drops every span: the API's no-op tracer provider. */
    static boolean dropsSpans(OpenTelemetry openTelemetry) {
        return openTelemetry.getTracerProvider() == TracerProvider.noop();
    }
}
