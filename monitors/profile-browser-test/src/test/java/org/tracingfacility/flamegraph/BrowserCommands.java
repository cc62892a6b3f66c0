package org.tracingfacility.flamegraph;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What the flame graph tests run: a JVM, headless Chromium, and the frames Chromium drew. */
final class BrowserCommands {
    private static final Pattern FRAME = Pattern.compile(
            "<div class=\"frame\" data-name=\"([^\"]+)\"[^>]*style=\"left: ([0-9.e-]+)%; width: ([0-9.e-]+)%; bottom: (\\d+)px;");

    private BrowserCommands() {
    }

    /** The java command of the JVM running the tests. */
    static String java() {
        return Paths.get(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** Each frame of a dumped DOM by name: its width (% of the graph) and its height above the bottom (px). */
    static Map<String, double[]> frames(String dom) {
        Map<String, double[]> frames = new HashMap<>();
        Matcher m = FRAME.matcher(dom);
        while (m.find()) {
            frames.put(m.group(1), new double[] {Double.parseDouble(m.group(3)), Integer.parseInt(m.group(4))});
        }
        return frames;
    }

    static List<String> sorted(Set<String> names) {
        List<String> list = new ArrayList<>(names);
        list.sort(null);
        return list;
    }

    /** Headless Chromium on a local file: no network, a profile directory of its own under {@code work}. */
    static String chromium(Path work, String... action) throws Exception {
        List<String> command = new ArrayList<>(List.of(chromiumExecutable(), "--headless", "--no-sandbox",
                "--disable-gpu", "--no-first-run", "--disable-extensions", "--disable-background-networking",
                "--user-data-dir=" + work.resolve("chromium-profile"), "--window-size=1200,400"));
        command.addAll(List.of(action));
        return run(work, 90, command.toArray(new String[0]));
    }

    private static String chromiumExecutable() {
        for (String candidate : List.of("/usr/bin/chromium", "/usr/bin/chromium-browser")) {
            if (Files.isExecutable(Paths.get(candidate))) {
                return candidate;
            }
        }
        throw new AssertionError("Chromium is not installed: scripts/setup.sh installs Debian's chromium package");
    }

    /**
     * Runs a command to its end (killed after {@code seconds}); returns its standard output, and
     * for a JVM its standard error after it.
     */
    static String run(Path work, int seconds, String... command) throws IOException, InterruptedException {
        return runIn(null, work, seconds, command);
    }

    /** {@link #run} in the working directory {@code directory} (null: this JVM's). */
    static String runIn(Path directory, Path work, int seconds, String... command)
            throws IOException, InterruptedException {
        Path stdout = Files.createTempFile(work, "stdout", ".txt");
        Path stderr = Files.createTempFile(work, "stderr", ".txt");
        Process process = new ProcessBuilder(command).directory(directory == null ? null : directory.toFile())
                .redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
        try {
            if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
                throw new AssertionError(command[0] + " did not finish in " + seconds + " s");
            }
            String errors = Files.readString(stderr);
            assertEquals(0, process.exitValue(), command[0] + " failed:\n" + errors);
            String output = Files.readString(stdout, StandardCharsets.UTF_8);
            return command[0].endsWith("java") ? output + errors : output;
        } finally {
            process.destroyForcibly();
            Files.deleteIfExists(stdout);
            Files.deleteIfExists(stderr);
        }
    }
}
