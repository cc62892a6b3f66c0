package org.tracingfacility.opentelemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.tracingfacility.opentelemetry.orders.OrdersMain;
import org.tracingfacility.opentelemetry.orders.PlainOrdersMain;

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

    /** No SDK set up (nor the agent): the spans would go nowhere, so one line says what to add. */
    @Test
    void withoutAnSdkOneLineSaysTheSpansGoNowhereAndWhatToAdd() throws Exception {
        List<String> output = runMain(PlainOrdersMain.class.getName());
        // (With autoconfigure on the class path but not enabled, OpenTelemetry logs a line of its own.)
        assertEquals(List.of(NoSdkWarning.TEXT), output.stream().filter(l -> l.startsWith("TF")).collect(Collectors.toList()),
                output::toString);
        assertEquals("total 24", output.get(output.size() - 1));
    }

    private static List<String> run(String... properties) throws Exception {
        return runMain(OrdersMain.class.getName(), properties);
    }

    private static List<String> runMain(String main, String... properties) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "-Dtf.jmx=false", "-Dtf.monitor=Orders=opentelemetry"));
        command.addAll(List.of(properties));
        command.add(main);
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        process.waitFor(60, TimeUnit.SECONDS);
        assertEquals(0, process.exitValue(), output);
        return List.of(output.split(System.lineSeparator()));
    }
}
