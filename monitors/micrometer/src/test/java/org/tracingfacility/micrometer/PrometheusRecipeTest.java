package org.tracingfacility.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.tracingfacility.micrometer.shop.PlainShopMain;
import org.tracingfacility.testing.Backend;

/**
 * The README's recipe from nothing to a Prometheus scrape, flags and dependencies alone: an
 * application with no metrics code, {@code micrometer-registry-prometheus} on its class path,
 * {@code -Dtf.monitor=...=micrometer -Dtf.micrometer.prometheus.port=N}; a real Prometheus
 * scrapes it. And without the port (nothing in Micrometer's global registry), one line says
 * that the timers go nowhere and what to add.
 */
class PrometheusRecipeTest {
    private static final String MONITOR = "-Dtf.monitor=Checkout=micrometer,Stock=micrometer";

    @Test
    @Timeout(120)
    void flagsAloneMakeTheTimersScrapedByPrometheus() throws Exception {
        int port = Backend.freeLoopbackPort();
        Process app = java(MONITOR, "-Dtf.micrometer.prometheus.port=" + port, PlainShopMain.class.getName(), "wait");
        try (Backend prometheus = PrometheusBackendTest.startPrometheus(port)) {
            Map<String, Double> counts = PrometheusBackendTest.awaitCounts(prometheus);
            assertEquals(PrometheusBackendTest.EXPECTED, counts, prometheus.logTail());
        } finally {
            app.getOutputStream().close();
        }
        String output = outputOf(app);
        assertEquals("TF: Prometheus metrics at http://localhost:" + port + "/metrics\ncalls made\n", output);
    }

    @Test
    void anEmptyGlobalRegistryIsOneLineSayingWhatToAdd() throws Exception {
        String output = outputOf(java(MONITOR, PlainShopMain.class.getName()));

        assertEquals("calls made\n" + NoRegistryWarning.TEXT + "\n", output);
        assertTrue(output.contains("micrometer-registry-prometheus and -Dtf.micrometer.prometheus.port=9464"), output);
    }

    /** A JVM of its own on the test class path (where the application's classes are enhanced). */
    private static Process java(String... arguments) throws Exception {
        List<String> command = new ArrayList<>(List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "-Dtf.jmx=false"));
        command.addAll(List.of(arguments));
        return new ProcessBuilder(command).redirectErrorStream(true).start();
    }

    private static String outputOf(Process process) throws Exception {
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), output);
        assertEquals(0, process.exitValue(), output);
        return output.replace(System.lineSeparator(), "\n");
    }
}
