package org.tracingfacility.agent;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/** Real JVMs for the agent's integration tests: sources compiled by javac, run with {@code -javaagent}. */
final class AgentProcess {
    private AgentProcess() {
    }

    static Path agentJar() {
        return Paths.get(System.getProperty("tf.agent.jar"));
    }

    /** JDK 25 ({@code TF_JDK25_HOME}, else Temurin's Debian location; scripts/setup.sh makes sure of it). */
    static Path jdk25Home() {
        String home = System.getenv("TF_JDK25_HOME");
        Path jdk = Paths.get(home == null || home.isBlank() ? "/usr/lib/jvm/temurin-25-jdk-amd64" : home);
        assertTrue(Files.isExecutable(jdk.resolve("bin/java")), "no JDK 25 at " + jdk + " (set TF_JDK25_HOME)");
        return jdk;
    }

    /** Runs {@code command} to its end (at most 4 minutes): its exit status and both streams. */
    static Result exec(List<String> command) throws IOException, InterruptedException {
        Path out = Files.createTempFile("tf-agent-it", ".out");
        Path err = Files.createTempFile("tf-agent-it", ".err");
        try {
            Process process = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            if (!process.waitFor(4, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new AssertionError("the JVM did not end within 4 minutes: " + command);
            }
            return new Result(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    static Path runtimeJar() {
        return Paths.get(System.getProperty("tf.runtime.jar"));
    }

    /** Compiles {@code sources} (binary class name to text) against tf-runtime into {@code dir/classes}. */
    static Path compile(Path dir, Map<String, String> sources) throws IOException {
        return compileRelease(dir, "11", sources);
    }

    /** {@link #compile} for Java {@code release}. */
    static Path compileRelease(Path dir, String release, Map<String, String> sources) throws IOException {
        return compileRelease(dir, release, sources, List.of());
    }

    /** {@link #compileRelease} with {@code libraries} on the class path beside tf-runtime. */
    static Path compileRelease(Path dir, String release, Map<String, String> sources, List<Path> libraries)
            throws IOException {
        Path src = dir.resolve("src");
        Path classes = dir.resolve("classes");
        Files.createDirectories(classes);
        List<String> classPath = new ArrayList<>(List.of(runtimeJar().toString()));
        libraries.forEach(library -> classPath.add(library.toString()));
        List<String> arguments = new ArrayList<>(List.of("-nowarn", "--release", release, "-d", classes.toString(),
                "-cp", String.join(File.pathSeparator, classPath)));
        for (Map.Entry<String, String> source : sources.entrySet()) {
            Path file = src.resolve(source.getKey().replace('.', '/') + ".java");
            Files.createDirectories(file.getParent());
            Files.writeString(file, source.getValue());
            arguments.add(file.toString());
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        int status = javac.run(null, null, null, arguments.toArray(new String[0]));
        assertTrue(status == 0, "javac failed for " + sources.keySet());
        return classes;
    }

    /** What a JVM printed and how it ended. */
    static final class Result {
        final int exitCode;
        final String stdout;
        final String stderr;
        /** What else a failure report shows: for an attach client, the target JVM's standard error. */
        private final String context;

        Result(int exitCode, String stdout, String stderr) {
            this(exitCode, stdout, stderr, "");
        }

        Result(int exitCode, String stdout, String stderr, String context) {
            this.exitCode = exitCode;
            this.stdout = stdout;
            this.stderr = stderr;
            this.context = context;
        }

        /** The agent's own lines on standard error. */
        List<String> agentLines() {
            List<String> lines = new ArrayList<>();
            for (String line : stderr.split("\n")) {
                if (line.startsWith("TF agent: ")) {
                    lines.add(line);
                }
            }
            return lines;
        }

        String describe() {
            return "exit " + exitCode + "\n--- stdout\n" + stdout + "--- stderr\n" + stderr + context;
        }
    }

    /**
     * Runs {@code main} on {@code classPath} with the HotSpot verifier on for every class.
     *
     * @param agentOptions the agent's argument; null runs without the agent
     */
    static Result run(String agentOptions, List<Path> classPath, String main) throws IOException, InterruptedException {
        return run(agentOptions, List.of(), classPath, main);
    }

    /** {@link #run(String, List, String)} with more JVM options before the main class. */
    static Result run(String agentOptions, List<String> jvmOptions, List<Path> classPath, String main, String... args)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xverify:all");
        command.addAll(jvmOptions);
        command.add("-Dtf.native.dir=" + System.getProperty("tf.native.dir"));
        if (agentOptions != null) {
            command.add("-javaagent:" + agentJar() + (agentOptions.isEmpty() ? "" : "=" + agentOptions));
        }
        command.add("-cp");
        List<String> entries = new ArrayList<>();
        classPath.forEach(entry -> entries.add(entry.toString()));
        command.add(String.join(File.pathSeparator, entries));
        command.add(main);
        command.addAll(List.of(args));
        return exec(command);
    }
}
