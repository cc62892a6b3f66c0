package org.tracingfacility.opentelemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.tracingfacility.opentelemetry.orders.OrdersMain;

/**
 * {@code -Dtf.monitor=Orders=opentelemetry} on an unchanged application in a JVM of its own:
 * the runtime finds the factory by the name its provider file gives it, and the factory
 * uses the global OpenTelemetry the application (or the agent) set up.
 */
class SelectedByNameTest {
    @Test
    void theNamedFactoryMakesSpansOfTheGlobalOpenTelemetry() throws Exception {
        assertEquals(List.of(
                "OrderService.priceOf <- OrderService.placeOrder null",
                "OrderService.charge <- OrderService.placeOrder null",
                "OrderService.placeOrder <- none null"), run());
        assertEquals(List.of(
                "OrderService.priceOf <- OrderService.placeOrder 2",
                "OrderService.charge <- OrderService.placeOrder null", // its first argument is @Redacted
                "OrderService.placeOrder <- none ada"), run("-Dtf.opentelemetry.arguments=true"));
    }

    private static List<String> run(String... properties) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "-Dtf.jmx=false", "-Dtf.monitor=Orders=opentelemetry"));
        command.addAll(List.of(properties));
        command.add(OrdersMain.class.getName());
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        process.waitFor(60, TimeUnit.SECONDS);
        assertEquals(0, process.exitValue(), output);
        return List.of(output.split(System.lineSeparator()));
    }
}
