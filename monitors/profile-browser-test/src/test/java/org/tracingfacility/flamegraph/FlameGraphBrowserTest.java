package org.tracingfacility.flamegraph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The whole way a user goes: an unchanged application started with
 * {@code -Dtf.monitor=Work=profile -Dtf.profile.output=....html} writes its flame graph at
 * exit, and a real browser (headless Chromium) draws it. The page's script builds one element
 * per frame; the test reads them from the DOM Chromium dumps after the script ran, and keeps
 * Chromium's screenshot as {@code target/flamegraph/pipeline.png}.
 */
class FlameGraphBrowserTest {
    private static final Path WORK = Paths.get("target", "flamegraph").toAbsolutePath();
    private static final String PIPELINE = Pipeline.class.getName();
    private static final Pattern FRAME = Pattern.compile(
            "<div class=\"frame\" data-name=\"([^\"]+)\"[^>]*style=\"left: ([0-9.e-]+)%; width: ([0-9.e-]+)%; bottom: (\\d+)px;");

    @Test
    @Timeout(180)
    void chromiumDrawsTheFramesOfTheProfileWrittenAtExit() throws Exception {
        Files.createDirectories(WORK);
        Path html = WORK.resolve("pipeline.html");
        Files.deleteIfExists(html);
        String console = run(60, Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "-Dtf.jmx=false",
                "-Dtf.monitor=Work=profile", "-Dtf.profile.output=" + html, PIPELINE);
        assertEquals("pipeline done\nTF: profile written to " + html + "\n", console);

        Path screenshot = WORK.resolve("pipeline.png");
        Files.deleteIfExists(screenshot);
        String dom = chromium("--dump-dom", html.toUri().toString());
        chromium("--screenshot=" + screenshot, html.toUri().toString());

        Map<String, double[]> frames = new HashMap<>();
        Matcher m = FRAME.matcher(dom);
        while (m.find()) {
            frames.put(m.group(1), new double[] {Double.parseDouble(m.group(3)), Integer.parseInt(m.group(4))});
        }
        assertEquals(List.of("all", PIPELINE + ".read", PIPELINE + ".run", PIPELINE + ".transform",
                PIPELINE + ".validate", PIPELINE + ".write"), sorted(frames.keySet()), dom);
        double[] run = frames.get(PIPELINE + ".run");
        double[] transform = frames.get(PIPELINE + ".transform");
        double[] validate = frames.get(PIPELINE + ".validate");
        double[] read = frames.get(PIPELINE + ".read");
        assertTrue(run[0] > 99, "run is all the profile: " + run[0]);
        assertTrue(transform[0] > 2 * read[0] && validate[0] > transform[0] / 2 && validate[0] < transform[0],
                "widths follow the time: transform " + transform[0] + "%, validate " + validate[0] + "%, read "
                        + read[0] + "%");
        assertTrue(frames.get("all")[1] < run[1] && run[1] < transform[1] && transform[1] < validate[1],
                "callees above their callers");
        assertTrue(dom.contains(PIPELINE + ".run \u2014 3 calls, "), "frames carry their figures");

        byte[] png = Files.readAllBytes(screenshot);
        assertTrue(png.length > 1000 && png[1] == 'P' && png[2] == 'N' && png[3] == 'G', "a PNG screenshot");
    }

    private static List<String> sorted(Set<String> names) {
        List<String> list = new ArrayList<>(names);
        list.sort(null);
        return list;
    }

    /** Headless Chromium on a local file: no network, a profile directory of its own under target/. */
    private static String chromium(String... action) throws Exception {
        List<String> command = new ArrayList<>(List.of(chromiumExecutable(), "--headless", "--no-sandbox",
                "--disable-gpu", "--no-first-run", "--disable-extensions", "--disable-background-networking",
                "--user-data-dir=" + WORK.resolve("chromium-profile"), "--window-size=1200,400"));
        command.addAll(List.of(action));
        return run(90, command.toArray(new String[0]));
    }

    private static String chromiumExecutable() {
        for (String candidate : List.of("/usr/bin/chromium", "/usr/bin/chromium-browser")) {
            if (Files.isExecutable(Paths.get(candidate))) {
                return candidate;
            }
        }
        throw new AssertionError("Chromium is not installed: scripts/setup.sh installs Debian's chromium package");
    }

    /** Runs a command to its end (killed after {@code seconds}); returns its standard output. */
    private static String run(int seconds, String... command) throws IOException, InterruptedException {
        Path stdout = Files.createTempFile(WORK, "stdout", ".txt");
        Path stderr = Files.createTempFile(WORK, "stderr", ".txt");
        Process process = new ProcessBuilder(command).redirectOutput(stdout.toFile())
                .redirectError(stderr.toFile()).start();
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
