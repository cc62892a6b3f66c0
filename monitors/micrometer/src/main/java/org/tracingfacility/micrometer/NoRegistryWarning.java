package org.tracingfacility.micrometer;

import io.micrometer.core.instrument.Metrics;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The one line {@code -Dtf.monitor=Group=micrometer} prints when Micrometer's global registry,
 * where the timers go, holds no registry to pass them to: they would go nowhere without a word.
 * Frameworks add theirs while they start (Spring Boot does), after TF may have chosen its
 * monitors, so the registry is looked at {@value #GRACE_SECONDS} seconds later, or at exit if
 * the JVM ends first.
 */
final class NoRegistryWarning {
    static final int GRACE_SECONDS = 20;
    static final String TEXT = "TF: -Dtf.monitor=...=micrometer: Micrometer's global registry holds no registry,"
            + " so the tf.method timers go nowhere; for Prometheus add io.micrometer:micrometer-registry-prometheus"
            + " and -D" + PrometheusEndpoint.PORT_PROPERTY + "=9464 (served at " + PrometheusEndpoint.PATH + "),"
            + " or add a registry of your own with Metrics.addRegistry (README: \"A Prometheus scrape from flags"
            + " alone\")";

    private static final AtomicBoolean WATCHING = new AtomicBoolean();
    private static final AtomicBoolean DONE = new AtomicBoolean();

    private NoRegistryWarning() {
    }

    /** Looks once, after the grace period or at exit, whichever comes first; the first call only. */
    static void watch() {
        if (!WATCHING.compareAndSet(false, true)) {
            return;
        }
        Thread later = new Thread(() -> {
            try {
                Thread.sleep(GRACE_SECONDS * 1000L);
                check();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "tf-micrometer-registry-check");
        later.setDaemon(true);
        later.start();
        Runtime.getRuntime().addShutdownHook(new Thread(NoRegistryWarning::check, "tf-micrometer-registry-check-at-exit"));
    }

    private static void check() {
        if (Metrics.globalRegistry.getRegistries().isEmpty() && DONE.compareAndSet(false, true)) {
            System.err.println(TEXT);
        }
        DONE.set(true);
    }
}
