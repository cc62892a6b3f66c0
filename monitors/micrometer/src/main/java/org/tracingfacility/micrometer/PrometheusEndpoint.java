package org.tracingfacility.micrometer;

import com.sun.net.httpserver.HttpServer;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * {@code -Dtf.micrometer.prometheus.port=9464}: a standalone application with no metrics
 * endpoint of its own gets one for Prometheus to scrape, from that flag and
 * {@code io.micrometer:micrometer-registry-prometheus} on the class path: Micrometer's
 * Prometheus registry joins the global registry, and the JDK's own HTTP server
 * ({@code jdk.httpserver}, no dependency) serves its scrape at {@code /metrics}.
 *
 * <p>Only {@link MicrometerProvider} names this class, and only when the flag is given, so
 * without it the Prometheus registry need not be on the class path.
 */
final class PrometheusEndpoint {
    static final String PORT_PROPERTY = "tf.micrometer.prometheus.port";
    static final String PATH = "/metrics";

    private PrometheusEndpoint() {
    }

    /**
     * Adds the Prometheus registry to the global one and serves it on {@code port}, from daemon
     * threads only (threads inherit that from the thread that creates them, the server's
     * dispatcher included): the endpoint never keeps the JVM from exiting.
     *
     * @return the port served
     */
    static int start(int port) throws IOException, InterruptedException {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        HttpServer server = HttpServer.create(new InetSocketAddress(port), 0);
        server.createContext(PATH, exchange -> {
            byte[] body = registry.scrape().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        Thread starter = new Thread(server::start, "tf-prometheus-endpoint");
        starter.setDaemon(true);
        starter.start();
        starter.join();
        Metrics.addRegistry(registry);
        return server.getAddress().getPort();
    }
}
