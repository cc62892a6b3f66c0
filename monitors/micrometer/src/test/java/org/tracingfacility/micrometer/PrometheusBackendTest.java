package org.tracingfacility.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.tracingfacility.micrometer.shop.Checkout;
import org.tracingfacility.micrometer.shop.Shop;
import org.tracingfacility.micrometer.shop.Stock;
import org.tracingfacility.runtime.MethodMonitorRegistry;
import org.tracingfacility.testing.Backend;

/**
 * The application serves Micrometer's Prometheus registry on a loopback port (the JDK's HTTP
 * server); a real Prometheus, started here with a generated configuration, scrapes it; the
 * test reads the counts back through Prometheus's query API.
 */
class PrometheusBackendTest {
    private static final Path WORK = Paths.get("target", "prometheus-test");
    static final Map<String, Double> EXPECTED = new TreeMap<>(Map.of(
            "inStock/Stock/none", 12.0,
            "pay/Checkout/IllegalArgumentException", 2.0,
            "pay/Checkout/none", 3.0,
            "price/Checkout/none", 12.0));

    @AfterEach
    void unregister() {
        MethodMonitorRegistry.clear(Checkout.class);
        MethodMonitorRegistry.clear(Stock.class);
    }

    @Test
    @Timeout(120)
    void prometheusScrapesTheCountsPerMethodAndOutcome() throws Exception {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        MicrometerFactory factory = new MicrometerFactory(registry);
        MethodMonitorRegistry.register(Checkout.class, factory);
        MethodMonitorRegistry.register(Stock.class, factory);
        Shop shop = new Shop();
        for (int i = 0; i < 12; i++) {
            shop.price(i);
        }
        for (int amount : new int[] {1, 2, 3}) {
            shop.pay(amount);
        }
        assertThrows(IllegalArgumentException.class, () -> shop.pay(-1));
        assertThrows(IllegalArgumentException.class, () -> shop.pay(-2));

        HttpServer app = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        app.createContext("/metrics", exchange -> {
            byte[] body = registry.scrape().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        app.start();
        try (Backend prometheus = startPrometheus(app.getAddress().getPort())) {
            Map<String, Double> counts = awaitCounts(prometheus);
            assertEquals(EXPECTED, counts, prometheus.logTail());
        } finally {
            app.stop(0);
        }
    }

    static Backend startPrometheus(int appPort) throws Exception {
        Files.createDirectories(WORK);
        Path config = WORK.resolve("prometheus.yml");
        Files.writeString(config, String.join("\n",
                "global:",
                "  scrape_interval: 1s",
                "scrape_configs:",
                "  - job_name: tf-app",
                "    metrics_path: /metrics",
                "    static_configs:",
                "      - targets: ['127.0.0.1:" + appPort + "']",
                ""));
        int port = Backend.freeLoopbackPort();
        Backend prometheus = Backend.start("prometheus", "http://127.0.0.1:" + port, List.of(
                Backend.executable("prometheus", "prometheus"),
                "--config.file=" + config.toAbsolutePath(),
                "--storage.tsdb.path=" + WORK.resolve("data-" + port).toAbsolutePath(),
                "--web.listen-address=127.0.0.1:" + port), WORK.resolve("prometheus.log"));
        prometheus.awaitReady("/-/ready", Duration.ofSeconds(60));
        return prometheus;
    }

    /** Queries until every series has been scraped (a scrape a second), or 60 seconds pass. */
    static Map<String, Double> awaitCounts(Backend prometheus) throws Exception {
        String query = URLEncoder.encode("tf_method_seconds_count{job=\"tf-app\",class=\"" + Shop.class.getName()
                + "\"}", StandardCharsets.UTF_8);
        Map<String, Double> counts = Map.of();
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            String body = Backend.get(prometheus.url("/api/v1/query?query=" + query)).body();
            counts = new TreeMap<>();
            for (JsonNode series : new ObjectMapper().readTree(body).path("data").path("result")) {
                JsonNode labels = series.path("metric");
                counts.put(labels.path("method").asText() + "/" + labels.path("group").asText() + "/"
                        + labels.path("exception").asText(), series.path("value").path(1).asDouble());
            }
            if (counts.size() >= EXPECTED.size()) {
                return counts;
            }
            Thread.sleep(500);
        }
        return counts;
    }
}
