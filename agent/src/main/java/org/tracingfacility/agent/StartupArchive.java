package org.tracingfacility.agent;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code java [JVM options] -jar tf-agent.jar archive [file]}: writes a class-data-sharing
 * archive of this JDK whose module graph includes {@code java.instrument}, once per machine, and
 * prints the option that makes a JVM use it.
 *
 * <p>Why: {@code -javaagent} adds {@code java.instrument} to the JVM's root modules, and the
 * JDK's own archive was dumped without it, so the JVM drops the archived module graph and boots
 * the module system the slow way: about 50 ms that any agent costs, more than TF's own start
 * (the start-up bench, {@code bench/agent/startup}). An archive dumped with
 * {@code --add-modules java.instrument} matches an agent's JVM, and JDK 24 and later use its
 * module graph then (JDK-8319343); older JDKs do not, so nothing is written there.
 *
 * <p>The archive is the JDK's own default class list dumped again ({@code -Xshare:dump}), with
 * the {@code -XX:}/{@code -Xmx} options this command was started with, since compressed
 * pointers and object headers must match the JVMs that map it; it is checked by a JVM that must
 * map it ({@code -Xshare:on}) and use its module graph before it is renamed into place.
 */
final class StartupArchive {
    static final String COMMAND = "archive";
    /** The first JDK whose JVM keeps an archived module graph under {@code --add-modules}. */
    private static final int FIRST_JDK = 24;
    private static final String MODULE_OPTION = "--add-modules=java.instrument";
    private static final String GRAPH_IN_USE = "full module graph: enabled";

    private StartupArchive() {
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length > 2 || (args.length == 2 && args[1].startsWith("-"))) {
            err.println("usage: java [JVM options] -jar tf-agent.jar archive [file]");
            return AttachClient.USAGE;
        }
        int feature = Runtime.version().feature();
        if (feature < FIRST_JDK) {
            err.println("TF: no start-up archive for JDK " + feature + ": its JVM drops an archived module graph"
                    + " whenever an agent adds java.instrument (JDK " + FIRST_JDK + " and later keep it), so"
                    + " there is nothing to gain; nothing written");
            return 1;
        }
        List<String> jvmOptions = matchingOptions();
        Path archive = args.length == 2 ? Paths.get(args[1]).toAbsolutePath() : defaultFile(jvmOptions);
        Path temporary = null;
        try {
            Files.createDirectories(archive.getParent());
            temporary = Files.createTempFile(archive.getParent(), archive.getFileName().toString(), ".tmp");
            Files.delete(temporary); // the dump writes it; a leftover would be overwritten anyway
            String failure = dump(jvmOptions, temporary);
            if (failure == null) {
                failure = check(jvmOptions, temporary);
            }
            if (failure != null) {
                err.println("TF: no start-up archive written to " + archive + ": " + failure);
                return 1;
            }
            Files.move(temporary, archive, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            err.println("TF: no start-up archive written to " + archive + ": " + e);
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("TF: interrupted; no start-up archive written to " + archive);
            return 1;
        } finally {
            deleteQuietly(temporary);
        }
        err.println("TF: start-up archive of " + System.getProperty("java.home") + " (" + Runtime.version()
                + ") written; start JVMs with this JDK, the agent and the option below"
                + (jvmOptions.isEmpty() ? "" : " (and " + String.join(" ", jvmOptions) + ")") + ":");
        out.println("-XX:SharedArchiveFile=" + archive);
        return 0;
    }

    /**
     * For the agent's summary at exit ({@code verbose}): the command that would shorten the next
     * start, when this JVM could use a start-up archive and runs with none of its own; else empty.
     * The command line is read from the operating system ({@code ProcessHandle}), not from the
     * management beans, which would cost the exit more than the hint is worth.
     */
    static String hintForThisJvm() {
        if (Runtime.version().feature() < FIRST_JDK) {
            return "";
        }
        String[] arguments = ProcessHandle.current().info().arguments().orElse(new String[0]);
        if (arguments.length == 0) {
            return ""; // not known here: say nothing rather than something wrong
        }
        // Options may also come from the environment, which the command line does not show.
        List<String> sources = new ArrayList<>(List.of(arguments));
        sources.add(String.valueOf(System.getenv("JAVA_TOOL_OPTIONS")));
        sources.add(String.valueOf(System.getenv("JDK_JAVA_OPTIONS")));
        for (String source : sources) {
            if (source.contains("-XX:SharedArchiveFile") || source.contains("-XX:AOTCache")) {
                return "";
            }
        }
        return "; this JVM booted without an archived module graph, which any agent costs: "
                + "java -jar tf-agent.jar archive writes one for this JDK (README, Start-up)";
    }

    /** The options of this command's JVM that an archive must be dumped with to be mapped later. */
    private static List<String> matchingOptions() {
        List<String> options = new ArrayList<>();
        for (String option : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            // Options that choose or make an archive are the dump's own to set.
            boolean archiveOption = option.contains("Archive") || option.contains("Shared")
                    || option.contains("AOT") || option.contains("ClassList") || option.startsWith("-Xshare");
            if ((option.startsWith("-XX:") || option.startsWith("-Xmx")) && !archiveOption) {
                options.add(option);
            }
        }
        return options;
    }

    /** One archive per JDK installation and set of options, under the agent's cache. */
    private static Path defaultFile(List<String> jvmOptions) {
        String home = System.getProperty("java.home");
        String key = home + "\n" + String.join("\n", jvmOptions);
        String name = "jdk-" + Runtime.version().toString().replaceAll("[^A-Za-z0-9.+-]", "_") + "-" + shortHash(key);
        return AgentCache.root().resolve("cds").resolve(name + ".jsa");
    }

    /** Dumps the archive; null when the JVM did, else what it said. */
    private static String dump(List<String> jvmOptions, Path file) throws IOException, InterruptedException {
        List<String> command = java(jvmOptions);
        command.addAll(List.of("-Xshare:dump", "-XX:SharedArchiveFile=" + file, MODULE_OPTION));
        Finished dumped = Finished.run(command);
        if (dumped.status != 0 || !Files.isRegularFile(file)) {
            return "the JVM's dump failed (exit " + dumped.status + "): " + dumped.output.strip();
        }
        return null;
    }

    /** Maps the archive as an agent's JVM would; null when its module graph is used, else why not. */
    private static String check(List<String> jvmOptions, Path file) throws IOException, InterruptedException {
        List<String> command = java(jvmOptions);
        command.addAll(List.of("-Xshare:on", "-XX:SharedArchiveFile=" + file, MODULE_OPTION, "-Xlog:cds=info",
                "-version"));
        Finished checked = Finished.run(command);
        if (checked.status != 0) {
            return "a JVM could not map it (exit " + checked.status + "): " + checked.output.strip();
        }
        if (!checked.output.contains(GRAPH_IN_USE)) {
            return "a JVM mapped it but did not use its module graph, so it would gain nothing";
        }
        return null;
    }

    private static List<String> java(List<String> jvmOptions) {
        List<String> command = new ArrayList<>();
        command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        return command;
    }

    private static String shortHash(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            StringBuilder hex = new StringBuilder();
            for (int i = 0; i < 4; i++) {
                hex.append(Character.forDigit((digest[i] >> 4) & 0xf, 16)).append(Character.forDigit(digest[i] & 0xf, 16));
            }
            return hex.toString();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is a required algorithm of every JDK", e);
        }
    }

    private static void deleteQuietly(Path file) {
        if (file == null) {
            return;
        }
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // A temporary file left behind is harmless; the next run writes its own.
        }
    }

    /** A child JVM's exit status and its output, both streams together. */
    private static final class Finished {
        final int status;
        final String output;

        private Finished(int status, String output) {
            this.status = status;
            this.output = output;
        }

        static Finished run(List<String> command) throws IOException, InterruptedException {
            Path output = Files.createTempFile("tf-archive", ".out");
            try {
                Process process = new ProcessBuilder(command).redirectErrorStream(true)
                        .redirectOutput(output.toFile()).start();
                if (!process.waitFor(5, TimeUnit.MINUTES)) {
                    process.destroyForcibly();
                    return new Finished(-1, "it did not end within 5 minutes: " + command);
                }
                return new Finished(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
            } finally {
                deleteQuietly(output);
            }
        }
    }
}
