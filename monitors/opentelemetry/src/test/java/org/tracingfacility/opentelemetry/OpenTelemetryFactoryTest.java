package org.tracingfacility.opentelemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.tracingfacility.opentelemetry.orders.OrderService;
import org.tracingfacility.opentelemetry.orders.Orders;
import org.tracingfacility.runtime.MethodMonitorFactoryProvider;
import org.tracingfacility.runtime.MethodMonitorRegistry;

class OpenTelemetryFactoryTest {
    @AfterEach
    void unregister() {
        MethodMonitorRegistry.clear(Orders.class);
    }

    @Test
    void argumentsAreNotRecordedUnlessAskedFor() {
        InMemorySpanExporter exporter = InMemorySpanExporter.create();
        OpenTelemetrySdk otel = OpenTelemetrySdk.builder().setTracerProvider(
                SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exporter)).build()).build();
        MethodMonitorRegistry.register(Orders.class, new OpenTelemetryFactory(otel));
        new OrderService().placeOrder("ada", "4111", 2);

        List<SpanData> spans = exporter.getFinishedSpanItems();
        List<String> names = new ArrayList<>();
        for (SpanData span : spans) {
            names.add(span.getName());
            assertNull(span.getAttributes().get(AttributeKey.stringKey("tf.arg.0")), span.toString());
        }
        assertEquals(List.of("OrderService.priceOf", "OrderService.charge", "OrderService.placeOrder"), names,
                "spans end innermost first");
        SpanData place = spans.get(2);
        assertEquals(place.getSpanContext().getSpanId(), spans.get(0).getParentSpanId());
        assertEquals("reserved", place.getEvents().get(0).getName());
        assertFalse(place.getEvents().get(0).getAttributes().asMap().toString().contains("items reserved"),
                "info arguments are arguments too");
    }

    @Test
    void theProviderFileNamesTheFactoryOpentelemetry() {
        List<String> names = new ArrayList<>();
        for (MethodMonitorFactoryProvider provider : ServiceLoader.load(MethodMonitorFactoryProvider.class)) {
            names.add(provider.name());
            assertEquals("opentelemetry", String.valueOf(provider.create()));
        }
        assertEquals(List.of("opentelemetry"), names);
    }
}
