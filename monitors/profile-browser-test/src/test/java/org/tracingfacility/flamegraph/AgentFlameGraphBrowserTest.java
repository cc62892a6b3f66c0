package org.tracingfacility.flamegraph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.example.pipeline.PlainPipeline;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The flame graph under the agent: an application never built with TF, started with
 * {@code -javaagent:tf-agent.jar=filter=…,monitor=Filtered=profile}, writes its flame graph at
 * exit, and headless Chromium draws it. The agent puts tf-runtime on the boot class path, where
 * a class finds no resource beside it: the page must not depend on one.
 */
class AgentFlameGraphBrowserTest {
    private static final Path WORK = Paths.get("target", "flamegraph-agent").toAbsolutePath();
    private static final String PIPELINE = PlainPipeline.class.getName();

    @Test
    @Timeout(180)
    void chromiumDrawsTheProfileAnAgentRunWroteAtExit() throws Exception {
        Path agent = agentJar();
        Files.createDirectories(WORK);
        Path html = WORK.resolve("agent.html");
        Files.deleteIfExists(html);
        // ';' between the targets of one filter, ',' between the agent's options.
        String filter = String.join(";", PIPELINE + "::run", PIPELINE + "::read", PIPELINE + "::transform",
                PIPELINE + "::validate", PIPELINE + "::write");
        String console = BrowserCommands.run(WORK, 90, BrowserCommands.java(),
                "-javaagent:" + agent + "=filter=" + filter + ",monitor=Filtered=profile", "-Xshare:off",
                "-Dtf.jmx=false", "-Dtf.profile.output=" + html,
                "-cp", Paths.get("target", "test-classes").toAbsolutePath().toString(), PIPELINE);
        assertTrue(console.startsWith("pipeline done\n"), console);
        assertTrue(console.contains("TF: profile written to " + html + "\n"), console);
        assertFalse(console.contains("not written"), console);

        String dom = BrowserCommands.chromium(WORK, "--dump-dom", html.toUri().toString());
        Map<String, double[]> frames = BrowserCommands.frames(dom);
        assertEquals(List.of("all", PIPELINE + ".read", PIPELINE + ".run", PIPELINE + ".transform",
                PIPELINE + ".validate", PIPELINE + ".write"), BrowserCommands.sorted(frames.keySet()), dom);
        assertTrue(frames.get(PIPELINE + ".run")[0] > 99, "run is all the profile");
        assertTrue(frames.get(PIPELINE + ".run")[1] < frames.get(PIPELINE + ".transform")[1]
                && frames.get(PIPELINE + ".transform")[1] < frames.get(PIPELINE + ".validate")[1],
                "callees above their callers");
        assertTrue(dom.contains(PIPELINE + ".run \u2014 3 calls, "), "frames carry their figures");
    }

    @Test
    @Timeout(120)
    void withoutAnOutputNameTheGraphIsTfProfileHtmlInTheWorkingDirectory() throws Exception {
        Path agent = agentJar();
        Path directory = Files.createDirectories(WORK.resolve("default-name"));
        Path html = directory.resolve("tf-profile.html");
        Files.deleteIfExists(html);
        String console = BrowserCommands.runIn(directory, WORK, 90, BrowserCommands.java(),
                "-javaagent:" + agent + "=filter=" + PIPELINE + "::run,monitor=Filtered=profile", "-Xshare:off",
                "-Dtf.jmx=false", "-cp", Paths.get("target", "test-classes").toAbsolutePath().toString(), PIPELINE);
        assertTrue(console.contains("TF: profile written to " + html + "\n"), console);
        assertTrue(Files.readString(html).contains("\"n\":\"" + PIPELINE + ".run\",\"c\":3,"), "the page carries the tree");
    }

    private static Path agentJar() {
        Path agent = Paths.get(System.getProperty("tf.agent.jar", "tf.agent.jar is not set"));
        assertTrue(Files.isRegularFile(agent), agent + " is missing: package the agent first (mvn install -pl agent)");
        return agent;
    }
}
