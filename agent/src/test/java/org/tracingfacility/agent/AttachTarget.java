package org.tracingfacility.agent;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import com.sun.tools.attach.VirtualMachine;

/**
 * A running JVM to attach to: the test's program ({@code app.Target}), driven by lines on its
 * standard input, one answer line each on its standard output; and a small agent of the test's
 * ({@code app.Held}) that, attached after TF, sees the bytes the JVM holds for a class.
 */
final class AttachTarget implements AutoCloseable {
    final Process process;
    private final BufferedWriter in;
    private final BufferedReader out;
    private final Path stderr;
    private final Path heldJar;

    private AttachTarget(Process process, Path stderr, Path heldJar) {
        this.process = process;
        this.stderr = stderr;
        this.heldJar = heldJar;
        this.in = new BufferedWriter(new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8));
        this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    /** Starts {@code app.Target} on {@code classPath} and waits for its "ready". */
    static AttachTarget start(Path work, List<Path> classPath) throws IOException {
        Path heldJar = work.resolve("held-agent.jar");
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().putValue("Agent-Class", "app.Held");
        manifest.getMainAttributes().putValue("Can-Retransform-Classes", "true");
        try (JarOutputStream jar = new JarOutputStream(Files.newOutputStream(heldJar), manifest)) {
            // The agent class itself is on the class path; the jar only names it.
        }
        List<String> command = new ArrayList<>();
        command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xverify:all");
        command.add("-Dtf.native.dir=" + System.getProperty("tf.native.dir"));
        command.add("-cp");
        List<String> entries = new ArrayList<>();
        classPath.forEach(entry -> entries.add(entry.toString()));
        command.add(String.join(File.pathSeparator, entries));
        command.add("app.Target");
        Path stderr = Files.createTempFile(work, "target", ".err");
        AttachTarget target = new AttachTarget(
                new ProcessBuilder(command).redirectError(stderr.toFile()).start(), stderr, heldJar);
        String ready = target.out.readLine();
        if (!"ready".equals(ready)) {
            throw new AssertionError("the target did not start: " + ready + "\n" + target.stderr());
        }
        return target;
    }

    /** Sends one command, returns its answer line. */
    String ask(String command) throws IOException {
        in.write(command);
        in.newLine();
        in.flush();
        String answer = out.readLine();
        if (answer == null) {
            throw new AssertionError("the target ended on '" + command + "':\n" + stderr());
        }
        return answer;
    }

    /**
     * The SHA-256 of the bytes the JVM holds for {@code className}. JVMTI calls the agents'
     * transformers in the order the agents were loaded: an agent loaded now, after TF's, sees
     * what TF's transformer made, which is what the JVM holds.
     */
    String held(String className) throws Exception {
        Path answer = Files.createTempFile("tf-held", ".txt");
        try {
            VirtualMachine vm = VirtualMachine.attach(Long.toString(process.pid()));
            try {
                vm.loadAgent(heldJar.toString(), className + " " + answer);
            } finally {
                vm.detach();
            }
            return Files.readString(answer, StandardCharsets.UTF_8).trim();
        } finally {
            Files.deleteIfExists(answer);
        }
    }

    String stderr() throws IOException {
        return Files.readString(stderr, StandardCharsets.UTF_8);
    }

    /** {@code java -jar tf-agent.jar <pid> words...}: the client's exit status and output. */
    AgentProcess.Result agent(String... words) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-jar");
        command.add(AgentProcess.agentJar().toString());
        command.add(Long.toString(process.pid()));
        command.addAll(List.of(words));
        Path outFile = Files.createTempFile("tf-attach-it", ".out");
        Path errFile = Files.createTempFile("tf-attach-it", ".err");
        try {
            Process client = new ProcessBuilder(command).redirectOutput(outFile.toFile())
                    .redirectError(errFile.toFile()).start();
            if (!client.waitFor(2, TimeUnit.MINUTES)) {
                client.destroyForcibly();
                throw new AssertionError("the attach client did not end within 2 minutes: " + command);
            }
            // An agent that fails to start reports it in the target JVM, not in the client.
            return new AgentProcess.Result(client.exitValue(), Files.readString(outFile, StandardCharsets.UTF_8),
                    Files.readString(errFile, StandardCharsets.UTF_8), "--- the target's stderr\n" + stderr());
        } finally {
            Files.deleteIfExists(outFile);
            Files.deleteIfExists(errFile);
        }
    }

    @Override
    public void close() throws IOException {
        try {
            in.write("exit");
            in.newLine();
            in.flush();
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (IOException | InterruptedException e) {
            // ending it by force below
        } finally {
            process.destroyForcibly();
        }
    }
}
