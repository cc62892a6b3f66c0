package org.tracingfacility.micrometer;

import java.io.IOException;
import org.tracingfacility.runtime.MethodMonitorFactory;
import org.tracingfacility.runtime.MethodMonitorFactoryProvider;

/**
 * The factory {@code -Dtf.monitor=Group=micrometer} names: timers in Micrometer's global
 * registry (where Spring Boot and most frameworks publish theirs), with a percentile
 * histogram when {@code -Dtf.micrometer.histogram=true}. With
 * {@code -Dtf.micrometer.prometheus.port=N}, Prometheus's registry joins the global one and is
 * served at {@code :N/metrics} ({@link PrometheusEndpoint}); a global registry left empty is
 * named in one line ({@link NoRegistryWarning}).
 */
public final class MicrometerProvider implements MethodMonitorFactoryProvider {
    static final String HISTOGRAM_PROPERTY = "tf.micrometer.histogram";

    private static boolean prometheusStarted;

    @Override
    public String name() {
        return "micrometer";
    }

    @Override
    public MethodMonitorFactory create() {
        servePrometheusIfAsked();
        NoRegistryWarning.watch();
        MicrometerFactory factory = new MicrometerFactory();
        return Boolean.getBoolean(HISTOGRAM_PROPERTY) ? factory.withPercentileHistogram() : factory;
    }

    /** The first call with {@code -Dtf.micrometer.prometheus.port} starts the endpoint; a failure is one line. */
    private static synchronized void servePrometheusIfAsked() {
        String port = System.getProperty(PrometheusEndpoint.PORT_PROPERTY);
        if (port == null || prometheusStarted) {
            return;
        }
        prometheusStarted = true;
        String flag = "-D" + PrometheusEndpoint.PORT_PROPERTY + "=" + port;
        try {
            int served = PrometheusEndpoint.start(Integer.parseInt(port.trim()));
            System.err.println("TF: Prometheus metrics at http://localhost:" + served + PrometheusEndpoint.PATH);
        } catch (NumberFormatException e) {
            System.err.println("TF: " + flag + " is not a port number; no Prometheus endpoint");
        } catch (NoClassDefFoundError e) {
            System.err.println("TF: " + flag + " needs io.micrometer:micrometer-registry-prometheus on the class path;"
                    + " no Prometheus endpoint (" + e.getMessage() + " is missing)");
        } catch (IOException | RuntimeException e) {
            System.err.println("TF: " + flag + ": no Prometheus endpoint: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
