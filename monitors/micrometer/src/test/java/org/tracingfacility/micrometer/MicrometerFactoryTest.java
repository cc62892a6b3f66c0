package org.tracingfacility.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.tracingfacility.micrometer.shop.Checkout;
import org.tracingfacility.micrometer.shop.Shop;
import org.tracingfacility.micrometer.shop.Stock;
import org.tracingfacility.runtime.MethodMonitorFactoryProvider;
import org.tracingfacility.runtime.MethodMonitorRegistry;

class MicrometerFactoryTest {
    private static final String SHOP = Shop.class.getName();

    @AfterEach
    void unregister() {
        MethodMonitorRegistry.clear(Checkout.class);
        MethodMonitorRegistry.clear(Stock.class);
    }

    @Test
    void aTimerPerMethodTaggedWithClassMethodGroupAndOutcome() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        MicrometerFactory factory = new MicrometerFactory(registry);
        MethodMonitorRegistry.register(Checkout.class, factory);
        MethodMonitorRegistry.register(Stock.class, factory);
        Shop shop = new Shop();
        for (int i = 0; i < 7; i++) {
            shop.price(i);
        }
        shop.pay(10);
        assertThrows(IllegalArgumentException.class, () -> shop.pay(-1));
        assertThrows(IllegalArgumentException.class, () -> shop.pay(-2));

        assertEquals(7, timer(registry, "price", "Checkout", "none", "success").count());
        assertEquals(7, timer(registry, "inStock", "Stock", "none", "success").count(),
                "the nested call is timed in its own group");
        assertEquals(1, timer(registry, "pay", "Checkout", "none", "success").count());
        assertEquals(2, timer(registry, "pay", "Checkout", "IllegalArgumentException", "error").count());
        assertTrue(timer(registry, "price", "Checkout", "none", "success").totalTime(TimeUnit.NANOSECONDS)
                >= timer(registry, "inStock", "Stock", "none", "success").totalTime(TimeUnit.NANOSECONDS),
                "a caller's time includes its callee's");
        assertNull(registry.find(MicrometerFactory.METRIC).tag("method", "price").tag("outcome", "error").timer());
    }

    @Test
    void percentileHistogramOnRequest() {
        PrometheusMeterRegistry plain = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        MethodMonitorRegistry.register(Checkout.class, new MicrometerFactory(plain));
        new Shop().pay(1);
        assertTrue(plain.scrape().contains("tf_method_seconds_count{"), plain.scrape());
        assertFalse(plain.scrape().contains("tf_method_seconds_bucket{"), "no histogram unless asked for");

        PrometheusMeterRegistry histogram = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        MethodMonitorRegistry.register(Checkout.class, new MicrometerFactory(histogram).withPercentileHistogram());
        new Shop().pay(1);
        assertTrue(histogram.scrape().contains("tf_method_seconds_bucket{"), histogram.scrape());
        assertThrows(IllegalArgumentException.class, () -> new MicrometerFactory(histogram).withPercentiles(1.5));
    }

    @Test
    void theProviderFileNamesTheFactoryMicrometer() {
        List<String> names = new ArrayList<>();
        for (MethodMonitorFactoryProvider provider : ServiceLoader.load(MethodMonitorFactoryProvider.class)) {
            names.add(provider.name());
            assertEquals("micrometer", String.valueOf(provider.create()));
        }
        assertEquals(List.of("micrometer"), names);
    }

    private static Timer timer(SimpleMeterRegistry registry, String method, String group, String exception,
            String outcome) {
        Timer timer = registry.find(MicrometerFactory.METRIC).tags("class", SHOP, "method", method,
                "group", group, "exception", exception, "outcome", outcome).timer();
        if (timer == null) {
            throw new AssertionError("no timer for " + method + "/" + outcome + " among "
                    + registry.getMetersAsString());
        }
        return timer;
    }
}
