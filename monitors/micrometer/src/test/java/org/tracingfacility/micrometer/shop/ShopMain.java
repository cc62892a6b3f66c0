package org.tracingfacility.micrometer.shop;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.List;

/**
 * An application that knows nothing of TF and publishes its metrics through Micrometer's
 * global registry, as frameworks do; TF's monitor comes from the command line. Prints each
 * TF timer as {@code method group exception outcome count}, sorted.
 */
public final class ShopMain {
    private ShopMain() {
    }

    public static void main(String[] args) {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Metrics.addRegistry(registry);
        Shop shop = new Shop();
        for (int i = 0; i < 4; i++) {
            shop.price(i);
        }
        try {
            shop.pay(-1);
        } catch (IllegalArgumentException expected) {
            // counted as an error
        }
        List<String> lines = new ArrayList<>();
        for (Meter meter : registry.getMeters()) {
            if (meter instanceof Timer && meter.getId().getName().equals("tf.method")) {
                Meter.Id id = meter.getId();
                lines.add(id.getTag("method") + " " + id.getTag("group") + " " + id.getTag("exception") + " "
                        + id.getTag("outcome") + " " + ((Timer) meter).count());
            }
        }
        lines.sort(null);
        lines.forEach(System.out::println);
    }
}
