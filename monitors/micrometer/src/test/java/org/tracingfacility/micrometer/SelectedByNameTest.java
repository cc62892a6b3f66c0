package org.tracingfacility.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.tracingfacility.micrometer.shop.ShopMain;

/**
 * {@code -Dtf.monitor=Checkout=micrometer,Stock=micrometer} on an unchanged application in a JVM
 * of its own: the runtime finds the factory by the name its provider file gives it.
 */
class SelectedByNameTest {
    @Test
    void theNamedFactoryRecordsIntoTheGlobalRegistry() throws Exception {
        Process process = new ProcessBuilder(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "-Dtf.jmx=false",
                "-Dtf.monitor=Checkout=micrometer,Stock=micrometer", ShopMain.class.getName())
                .redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        process.waitFor(60, TimeUnit.SECONDS);
        assertEquals(0, process.exitValue(), output);
        assertEquals(List.of(
                "inStock Stock none success 4",
                "pay Checkout IllegalArgumentException error 1",
                "price Checkout none success 4"), List.of(output.split(System.lineSeparator())));
    }
}
