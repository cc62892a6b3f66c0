package org.tracingfacility.flamegraph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
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

    @Test
    @Timeout(180)
    void chromiumDrawsTheFramesOfTheProfileWrittenAtExit() throws Exception {
        Path html = WORK.resolve("pipeline.html");
        String console = runPipeline("profile", "tf.profile.output", html);
        assertEquals("pipeline done\nTF: profile written to " + html + "\n", console);

        Path screenshot = WORK.resolve("pipeline.png");
        Files.deleteIfExists(screenshot);
        String dom = BrowserCommands.chromium(WORK, "--dump-dom", html.toUri().toString());
        BrowserCommands.chromium(WORK, "--screenshot=" + screenshot, html.toUri().toString());

        Map<String, double[]> frames = BrowserCommands.frames(dom);
        assertEquals(List.of("all", PIPELINE + ".read", PIPELINE + ".run", PIPELINE + ".transform",
                PIPELINE + ".validate", PIPELINE + ".write"), BrowserCommands.sorted(frames.keySet()), dom);
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

    /**
     * {@code calls} counts calls and draws widths by calls, those below included: each of run's
     * three calls makes one call of each callee, transform one of validate, so read, validate
     * and write each weigh a fifth of run and transform two, whatever the sleeps.
     */
    @Test
    @Timeout(180)
    void chromiumDrawsTheCountedCallsWrittenAtExit() throws Exception {
        Path html = WORK.resolve("pipeline-calls.html");
        String console = runPipeline("calls", "tf.calls.output", html);
        assertEquals("pipeline done\nTF: profile of calls written to " + html + "\n", console);

        String dom = BrowserCommands.chromium(WORK, "--dump-dom", html.toUri().toString());
        Map<String, double[]> frames = BrowserCommands.frames(dom);
        double[] run = frames.get(PIPELINE + ".run");
        assertTrue(run[0] > 99, "run is all the profile: " + run[0]);
        for (String callee : List.of("read", "validate", "write")) {
            double width = frames.get(PIPELINE + "." + callee)[0];
            assertTrue(Math.abs(width - 20) < 1, callee + " is a fifth of the calls: " + width + "%");
        }
        double transform = frames.get(PIPELINE + ".transform")[0];
        assertTrue(Math.abs(transform - 40) < 1, "transform and validate: two fifths: " + transform + "%");
        assertTrue(dom.contains(PIPELINE + ".run \u2014 3 calls, 15 with those below"), "frames carry their counts");
        assertTrue(dom.contains("Width: calls, those below included."), "the legend says what widths are");
    }

    /** Runs the pipeline with {@code Work} under {@code monitor}, its file at {@code html}; the console. */
    private static String runPipeline(String monitor, String outputProperty, Path html) throws Exception {
        Files.createDirectories(WORK);
        Files.deleteIfExists(html);
        return BrowserCommands.run(WORK, 60, BrowserCommands.java(), "-cp", System.getProperty("java.class.path"),
                "-Dtf.jmx=false", "-Dtf.monitor=Work=" + monitor, "-D" + outputProperty + "=" + html, PIPELINE);
    }
}
