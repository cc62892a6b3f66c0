package org.tracingfacility.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

/** A JVM of its own for a test's main class: for what TF chooses once per JVM. */
final class ForkedJvm {
    private ForkedJvm() {
    }

    /**
     * Runs {@code main} on this test's class path with {@code jvmOptions} (and the JMX bean off);
     * its standard output and error, lines ending in {@code \\n}. Fails the test unless it exits 0.
     */
    static String run(List<String> jvmOptions, Class<?> main, String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), "-Dtf.jmx=false", main.getName()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, process.waitFor(), output);
        return output.replace(System.lineSeparator(), "\n");
    }
}
