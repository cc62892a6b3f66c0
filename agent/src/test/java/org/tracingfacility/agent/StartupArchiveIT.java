package org.tracingfacility.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code java -jar tf-agent.jar archive}, as a user runs it: on JDK 25 it writes a start-up
 * archive under the agent's cache and prints the option, and an agent's JVM started with that
 * option keeps the archived module graph that it drops without it; on JDK 17, whose JVM would not
 * use it, and where the file cannot be written, it says why and writes nothing.
 */
class StartupArchiveIT {
    private static final String HELLO = "package app;\n"
            + "public class Hello {\n"
            + "  static int next(int n) { return n + 1; }\n"
            + "  public static void main(String[] args) {\n"
            + "    int n = 0;\n"
            + "    for (int i = 0; i < 10; i++) n = next(n);\n"
            + "    System.out.println(\"hello \" + n);\n"
            + "  }\n"
            + "}\n";
    private static final String GRAPH_USED = "full module graph: enabled";

    @TempDir
    Path work;

    @Test
    void anAgentsJvmStartedWithTheArchiveKeepsTheArchivedModuleGraph() throws Exception {
        Path java = AgentProcess.jdk25Home().resolve("bin/java");
        Path cache = work.resolve("cache");
        AgentProcess.Result made = AgentProcess.exec(List.of(java.toString(), "-Dtf.native.dir=" + cache, "-jar",
                AgentProcess.agentJar().toString(), "archive"));
        assertEquals(0, made.exitCode, made::describe);
        String option = made.stdout.strip();
        assertTrue(option.startsWith("-XX:SharedArchiveFile=" + cache.resolve("agent").resolve("cds")), made::describe);
        assertTrue(Files.size(Path.of(option.substring(option.indexOf('=') + 1))) > 0, made::describe);
        assertTrue(made.stderr.contains("start-up archive of " + AgentProcess.jdk25Home()), made::describe);

        Path classes = AgentProcess.compile(work, Map.of("app.Hello", HELLO));
        AgentProcess.Result without = hello(java, classes, List.of());
        AgentProcess.Result with = hello(java, classes, List.of(option));
        for (AgentProcess.Result run : List.of(without, with)) {
            assertEquals(0, run.exitCode, run::describe);
            assertEquals("hello 10", run.stdout.lines().filter(line -> line.startsWith("hello")).findFirst()
                    .orElse(""), run::describe);
            assertTrue(Pattern.compile("(?m)^\\s*\\S*Hello\\.next\\(int\\)\\s+10\\s").matcher(run.stderr).find(),
                    run::describe);
        }
        assertFalse(without.stdout.contains(GRAPH_USED), without::describe);
        assertTrue(with.stdout.contains(GRAPH_USED), with::describe);
        assertTrue(hintedAt(without), without::describe);
        assertFalse(hintedAt(with), with::describe);
    }

    /** Whether the agent's summary at exit ({@code verbose}) pointed at the archive command. */
    private static boolean hintedAt(AgentProcess.Result run) {
        return run.agentLines().stream().anyMatch(line -> line.contains("calls of the core")
                && line.contains("java -jar tf-agent.jar archive writes one for this JDK"));
    }

    @Test
    void jdk17WritesNothingAndSaysWhy() throws Exception {
        assertTrue(Runtime.version().feature() < 24, "the build's JDK is 17 (README), whose JVM would not use an archive");
        Path file = work.resolve("startup.jsa");
        AgentProcess.Result refused = AgentProcess.exec(List.of(javaOfThisBuild(), "-jar",
                AgentProcess.agentJar().toString(), "archive", file.toString()));
        assertEquals(1, refused.exitCode, refused::describe);
        assertEquals("", refused.stdout, refused::describe);
        assertTrue(refused.stderr.contains("no start-up archive for JDK " + Runtime.version().feature()),
                refused::describe);
        assertFalse(Files.exists(file), refused::describe);
    }

    @Test
    void aFileThatCannotBeWrittenIsNamedAndNothingIsLeft() throws Exception {
        Path notADirectory = Files.writeString(work.resolve("plain-file"), "not a directory");
        Path file = notADirectory.resolve("startup.jsa");
        AgentProcess.Result failed = AgentProcess.exec(List.of(AgentProcess.jdk25Home().resolve("bin/java").toString(),
                "-jar", AgentProcess.agentJar().toString(), "archive", file.toString()));
        assertEquals(1, failed.exitCode, failed::describe);
        assertTrue(failed.stderr.contains("no start-up archive written to " + file), failed::describe);
        assertEquals(List.of("plain-file"), listing(work), failed::describe);
    }

    /** The hello world traced under the agent, the JVM's class-data-sharing log on standard output. */
    private static AgentProcess.Result hello(Path java, Path classes, List<String> options) throws Exception {
        List<String> command = new ArrayList<>(List.of(java.toString(), "-Xlog:cds=info",
                "-Dtf.native.dir=" + System.getProperty("tf.native.dir")));
        command.addAll(options);
        command.addAll(List.of("-javaagent:" + AgentProcess.agentJar() + "=filter=app.Hello::next,monitor=Filtered=timing,verbose",
                "-cp", classes.toString(), "app.Hello"));
        return AgentProcess.exec(command);
    }

    private static String javaOfThisBuild() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static List<String> listing(Path directory) throws Exception {
        try (var files = Files.list(directory)) {
            return files.map(file -> file.getFileName().toString()).sorted().collect(java.util.stream.Collectors.toList());
        }
    }
}
