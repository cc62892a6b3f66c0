package org.tracingfacility.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Apache Commons Codec from Maven Central, every method monitored through a filter
 * ({@code org.apache.commons.codec.**}), then its own test suite run against the enhanced
 * classes (HotSpot verifier on, a recording monitor attached): every test that passes on the
 * original classes passes on the enhanced ones; and once more with the classes as compiled and
 * the agent enhancing them as they load.
 */
class LibrarySuiteIT {
    private static final Duration BUILD_TIMEOUT = Duration.ofMinutes(10);
    private static final Pattern TEST_CASE = Pattern.compile(
            "<testcase name=\"([^\"]*)\" classname=\"([^\"]*)\"[^>]*?(/>|>(.*?)</testcase>)", Pattern.DOTALL);

    /** The suite on the library's original classes, run once for both tests. */
    private static Path original;

    @BeforeAll
    static void runTheSuiteOnTheOriginalClasses() throws Exception {
        original = SampleProjects.copy("library-suite", "library-original");
        ProcessRunner.Result originalBuild = maven(original).run("verify", "-Dtf.skip=true");
        assertEquals(0, originalBuild.exitCode, originalBuild::describe);
        assertTrue(passedTests(original).size() > 1000, "the library's suite ran: " + passedTests(original).size() + " passed");
        assertEquals(0L, recording(original).get("enters"), "nothing to see without enhancement");
    }

    @Test
    void theLibrarysOwnTestsPassOnItsEnhancedClasses() throws Exception {
        Path enhanced = SampleProjects.copy("library-suite", "library-enhanced");
        ProcessRunner.Result enhancedBuild = maven(enhanced).run("verify");
        assertEquals(0, enhancedBuild.exitCode, enhancedBuild::describe);
        assertNoTestLost(enhanced);

        byte[] base64 = Files.readAllBytes(enhanced.resolve("target/classes/org/apache/commons/codec/binary/Base64.class"));
        assertTrue(new String(base64, StandardCharsets.ISO_8859_1).contains("Lorg/tracingfacility/annotation/TFEnhanced;"),
                "Base64 was enhanced");

        assertTheMonitorSawTheLibrary(enhanced);
    }

    /**
     * The same suite with the library's classes left as compiled and the agent enhancing them
     * as they load ({@code -javaagent:tf-agent.jar=filter=org.apache.commons.codec.**}): the
     * library's tests themselves, in the same packages, are selected too.
     */
    @Test
    void theLibrarysOwnTestsPassWithTheAgentEnhancingItsClassesAsTheyLoad() throws Exception {
        Path withAgent = SampleProjects.copy("library-suite", "library-agent");
        ProcessRunner.Result agentBuild = maven(withAgent).run("verify", "-Dtf.skip=true",
                "-Dtf.agent.argLine=-javaagent:" + ItEnvironment.agentJar() + "=filter=org.apache.commons.codec.**");
        assertEquals(0, agentBuild.exitCode, agentBuild::describe);
        assertNoTestLost(withAgent);
        assertTheMonitorSawTheLibrary(withAgent);
    }

    private static void assertNoTestLost(Path project) throws IOException {
        Set<String> lost = new TreeSet<>(passedTests(original));
        lost.removeAll(passedTests(project));
        assertEquals(Set.of(), lost, "tests that pass on the original classes but not on the enhanced ones");
    }

    private static void assertTheMonitorSawTheLibrary(Path project) throws IOException {
        Map<String, Long> seen = recording(project);
        assertTrue(seen.get("enters") > 100_000, "the monitor saw the library at work: " + seen);
        assertEquals(seen.get("enters"), seen.get("exits"), "one exit per enter: " + seen);
        assertEquals(0L, seen.get("unmatchedExits"), seen::toString);
        assertTrue(seen.get("exceptions") > 0, "the suite's expected exceptions were reported: " + seen);
        assertTrue(seen.get("classes") > 50, seen::toString);
    }

    /** {@code class#method} of every test case that neither failed, erred nor was skipped. */
    private static Set<String> passedTests(Path project) throws IOException {
        Set<String> passed = new TreeSet<>();
        try (Stream<Path> reports = Files.list(project.resolve("target/surefire-reports"))) {
            for (Path report : reports.filter(p -> p.getFileName().toString().startsWith("TEST-")).collect(Collectors.toList())) {
                Matcher m = TEST_CASE.matcher(Files.readString(report));
                while (m.find()) {
                    String body = m.group(4) == null ? "" : m.group(4);
                    if (!body.contains("<failure") && !body.contains("<error") && !body.contains("<skipped")) {
                        passed.add(m.group(2) + "#" + m.group(1));
                    }
                }
            }
        }
        return passed;
    }

    private static Map<String, Long> recording(Path project) throws IOException {
        Properties p = new Properties();
        try (var in = Files.newInputStream(project.resolve("target/tf-recording.txt"))) {
            p.load(in);
        }
        return p.stringPropertyNames().stream().collect(Collectors.toMap(k -> k, k -> Long.parseLong(p.getProperty(k))));
    }

    private static MavenBuild maven(Path project) {
        return MavenBuild.of(ItEnvironment.mavenExecutable(), project).withTimeout(BUILD_TIMEOUT);
    }
}
