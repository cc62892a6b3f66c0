package org.tracingfacility.opentelemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.opentelemetry.exporter.zipkin.ZipkinSpanExporter;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.tracingfacility.opentelemetry.orders.OrderService;
import org.tracingfacility.opentelemetry.orders.Orders;
import org.tracingfacility.opentelemetry.orders.PlainOrdersMain;
import org.tracingfacility.runtime.MethodMonitorRegistry;
import org.tracingfacility.testing.Backend;

/**
 * A real Zipkin server (its executable jar from Maven Central, in-memory storage, on a
 * loopback port) receives TF's spans through the OpenTelemetry SDK's Zipkin exporter; the
 * test reads the traces back through Zipkin's HTTP API, as a user would look at them.
 */
class ZipkinBackendTest {
    private static final Path WORK = Paths.get("target", "zipkin-test");
    private static final String SERVICE = OrderService.class.getName();

    @AfterEach
    void unregister() {
        MethodMonitorRegistry.clear(Orders.class);
    }

    /** One server for the tests here: it takes a while to start. */
    private static Backend zipkin;

    @BeforeAll
    @Timeout(240)
    static void startZipkin() throws Exception {
        zipkin = startZipkin(Backend.freeLoopbackPort());
    }

    @AfterAll
    static void stopZipkin() throws InterruptedException {
        if (zipkin != null) {
            zipkin.close();
        }
    }

    @Test
    @Timeout(120)
    void zipkinShowsTheTraceTreeWithNamesAttributesEventsAndErrors() throws Exception {
        SdkTracerProvider tracing = SdkTracerProvider.builder()
                .setResource(Resource.getDefault().merge(Resource.create(
                        Attributes.of(AttributeKey.stringKey("service.name"), "tf-orders"))))
                .addSpanProcessor(SimpleSpanProcessor.create(
                        ZipkinSpanExporter.builder().setEndpoint(zipkin.url("/api/v2/spans")).build()))
                .build();
        try {
            OpenTelemetrySdk otel = OpenTelemetrySdk.builder().setTracerProvider(tracing).build();
            MethodMonitorRegistry.register(Orders.class, new OpenTelemetryFactory(otel).withArguments());
            Tracer webFramework = otel.getTracer("web-framework");
            OrderService orders = new OrderService();
            String placed = request(webFramework, "GET /orders/placed",
                    () -> assertEquals(36, orders.placeOrder("ada", "4111-0000-1111", 3)));
            String declined = request(webFramework, "GET /orders/declined",
                    () -> assertThrows(IllegalStateException.class,
                            () -> orders.placeOrder("bob", "4222-0000-2222", 20)));
            assertTrue(tracing.forceFlush().join(30, TimeUnit.SECONDS).isSuccess(), "spans exported");

            assertPlacedTrace(awaitTrace(zipkin, placed, 4));
            assertDeclinedTrace(awaitTrace(zipkin, declined, 4));
        } finally {
            tracing.shutdown().join(10, TimeUnit.SECONDS);
        }
    }

    /**
     * The README's recipe from nothing to spans in Zipkin, dependencies and flags alone: an
     * application with no tracing code, OpenTelemetry's SDK autoconfigure module and Zipkin
     * exporter on its class path, and {@code -Dtf.monitor=Orders=opentelemetry} with
     * OpenTelemetry's own properties. Autoconfigure flushes the spans when the JVM exits.
     */
    @Test
    @Timeout(120)
    void flagsAloneSendTheSpansToZipkin() throws Exception {
        List<String> command = new ArrayList<>(List.of(
                Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "-Dtf.jmx=false",
                "-Dtf.monitor=Orders=opentelemetry",
                "-Dotel.java.global-autoconfigure.enabled=true",
                "-Dotel.traces.exporter=zipkin",
                "-Dotel.exporter.zipkin.endpoint=" + zipkin.url("/api/v2/spans"),
                "-Dotel.metrics.exporter=none",
                "-Dotel.logs.exporter=none",
                "-Dotel.service.name=tf-recipe",
                PlainOrdersMain.class.getName()));
        Process app = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(app.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(app.waitFor(60, TimeUnit.SECONDS), output);
        assertEquals(0, app.exitValue(), output);
        assertEquals("total 24", output.strip(), "no warning: the SDK is there");

        Map<String, JsonNode> spans = awaitService(zipkin, "tf-recipe", 3);
        JsonNode place = spans.get("orderservice.placeorder");
        assertFalse(place.has("parentId"), spans.toString());
        assertEquals(place.path("id"), spans.get("orderservice.priceof").path("parentId"), spans.toString());
        assertEquals(place.path("id"), spans.get("orderservice.charge").path("parentId"), spans.toString());
        assertEquals("placeOrder", place.path("tags").path("code.function").asText(), place.toString());
    }

    /** The spans of a service's one trace by name, once Zipkin has stored {@code count} of them (or 60 s passed). */
    private static Map<String, JsonNode> awaitService(Backend zipkin, String service, int count) throws Exception {
        Map<String, JsonNode> spans = new HashMap<>();
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            HttpResponse<String> response = Backend.get(zipkin.url("/api/v2/traces?serviceName=" + service));
            if (response.statusCode() == 200) {
                spans.clear();
                for (JsonNode trace : new ObjectMapper().readTree(response.body())) {
                    for (JsonNode span : trace) {
                        spans.put(span.path("name").asText(), span);
                    }
                }
                if (spans.size() >= count) {
                    return spans;
                }
            }
            Thread.sleep(300);
        }
        throw new AssertionError("service " + service + " has " + spans.keySet() + ", not " + count + " spans:\n"
                + zipkin.logTail());
    }

    private static void assertPlacedTrace(Map<String, JsonNode> spans) {
        JsonNode web = spans.get("get /orders/placed");
        JsonNode place = spans.get("orderservice.placeorder");
        JsonNode price = spans.get("orderservice.priceof");
        JsonNode charge = spans.get("orderservice.charge");
        assertFalse(web.has("parentId"), "the web framework's span is the root");
        assertEquals(web.path("id"), place.path("parentId"), "TF's span joins the framework's");
        assertEquals(place.path("id"), price.path("parentId"), "nested monitored calls nest");
        assertEquals(place.path("id"), charge.path("parentId"));

        JsonNode tags = place.path("tags");
        assertEquals(SERVICE, tags.path("code.namespace").asText());
        assertEquals("placeOrder", tags.path("code.function").asText());
        assertEquals("Orders", tags.path("tf.group").asText());
        assertEquals(Thread.currentThread().getName(), tags.path("thread.name").asText());
        assertEquals(String.valueOf(Thread.currentThread().getId()), tags.path("thread.id").asText());
        assertEquals("ada", tags.path("tf.arg.0").asText(), tags.toString());
        assertEquals("3", tags.path("tf.arg.2").asText(), tags.toString());
        assertFalse(tags.has("tf.arg.1"), "a @Redacted argument is not recorded: " + tags);
        assertFalse(spans.toString().contains("4111"), "the card number reaches no span");
        assertFalse(tags.has("error"), tags.toString());

        assertEquals(List.of("\"reserved\":{\"tf.arg.0\":\"items reserved\",\"tf.arg.1\":\"3\"}"),
                annotations(place), "the info method is an event of the span, with its arguments");
    }

    private static void assertDeclinedTrace(Map<String, JsonNode> spans) {
        JsonNode charge = spans.get("orderservice.charge");
        JsonNode place = spans.get("orderservice.placeorder");
        for (JsonNode failed : List.of(charge, place)) {
            assertEquals("ERROR", failed.path("tags").path("otel.status_code").asText(), failed.toString());
            assertEquals("IllegalStateException", failed.path("tags").path("error").asText(), failed.toString());
            String events = annotations(failed).toString();
            assertTrue(events.contains("exception") && events.contains("card declined for 240"), events);
        }
        assertEquals("240", charge.path("tags").path("tf.arg.1").asText(), "amount, after the redacted card");
        assertFalse(spans.get("orderservice.priceof").path("tags").has("error"));
        assertFalse(spans.toString().contains("4222"), "the card number reaches no span");
    }

    /** Runs {@code body} under a server span, as a web framework would; returns the trace id. */
    private static String request(Tracer webFramework, String name, Runnable body) {
        Span server = webFramework.spanBuilder(name).setSpanKind(SpanKind.SERVER).startSpan();
        try (Scope scope = server.makeCurrent()) {
            body.run();
        } finally {
            server.end();
        }
        return server.getSpanContext().getTraceId();
    }

    private static Backend startZipkin(int port) throws Exception {
        Path jar = Paths.get(System.getProperty("tf.zipkin.jar", "target/zipkin/zipkin-server.jar"));
        assertTrue(Files.isRegularFile(jar), jar + " is missing: the build copies it from Maven Central");
        Backend zipkin = Backend.start("zipkin", "http://127.0.0.1:" + port, List.of(
                Paths.get(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
                "-jar", jar.toString(),
                "--zipkin.storage.type=mem",
                "--armeria.ports[0].ip=127.0.0.1",
                "--armeria.ports[0].port=" + port,
                "--armeria.ports[0].protocols[0]=http"), WORK.resolve("zipkin.log"));
        zipkin.awaitReady("/health", Duration.ofSeconds(180));
        return zipkin;
    }

    /** The spans of a trace by name, once Zipkin has stored {@code count} of them (or 60 s passed). */
    private static Map<String, JsonNode> awaitTrace(Backend zipkin, String traceId, int count) throws Exception {
        Map<String, JsonNode> spans = new HashMap<>();
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            HttpResponse<String> response = Backend.get(zipkin.url("/api/v2/trace/" + traceId));
            if (response.statusCode() == 200) {
                spans.clear();
                for (JsonNode span : new ObjectMapper().readTree(response.body())) {
                    spans.put(span.path("name").asText(), span);
                }
                if (spans.size() >= count) {
                    return spans;
                }
            }
            Thread.sleep(300);
        }
        throw new AssertionError("trace " + traceId + " has " + spans.keySet() + ", not " + count + " spans:\n"
                + zipkin.logTail());
    }

    private static List<String> annotations(JsonNode span) {
        List<String> values = new ArrayList<>();
        for (JsonNode annotation : span.path("annotations")) {
            values.add(annotation.path("value").asText());
        }
        return values;
    }
}
