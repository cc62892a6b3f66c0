package org.tracingfacility.opentelemetry.orders;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;

/**
 * An application that knows nothing of TF and sets up OpenTelemetry as the global instance
 * (as the OpenTelemetry agent does); TF's monitor comes from the command line. Prints each
 * span as {@code name <- parent name} with its first argument attribute.
 */
public final class OrdersMain {
    private OrdersMain() {
    }

    public static void main(String[] args) {
        InMemorySpanExporter exporter = InMemorySpanExporter.create();
        OpenTelemetrySdk.builder().setTracerProvider(
                SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exporter)).build())
                .buildAndRegisterGlobal();
        new OrderService().placeOrder("ada", "4111", 2);
        for (SpanData span : exporter.getFinishedSpanItems()) {
            String parent = "none";
            for (SpanData other : exporter.getFinishedSpanItems()) {
                if (other.getSpanId().equals(span.getParentSpanId())) {
                    parent = other.getName();
                }
            }
            System.out.println(span.getName() + " <- " + parent + " "
                    + span.getAttributes().get(AttributeKey.stringKey("tf.arg.0")));
        }
    }
}
