package org.tracingfacility.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a command to completion, its output (stdout and stderr together) kept for assertions. */
final class ProcessRunner {
    private ProcessRunner() {}

    /** The outcome of one command. */
    static final class Result {
        final List<String> command;
        final int exitCode;
        final String output;

        Result(List<String> command, int exitCode, String output) {
            this.command = command;
            this.exitCode = exitCode;
            this.output = output;
        }

        /** For assertion messages: what ran and everything it printed. */
        String describe() {
            return String.join(" ", command) + " exited with " + exitCode + ":\n" + output;
        }
    }

    /**
     * Runs {@code command} in {@code directory}; the output is also written to {@code log}
     * so a failed run can be inspected after the test.
     *
     * @throws IOException if the command did not finish within {@code timeout} (it is killed)
     */
    static Result run(List<String> command, Path directory, Path log, Duration timeout)
            throws IOException, InterruptedException {
        Files.createDirectories(log.getParent());
        Process process = new ProcessBuilder(command)
                .directory(directory.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly().waitFor();
            throw new IOException(String.join(" ", command) + " did not finish within " + timeout
                    + "; its output is in " + log);
        }
        return new Result(List.copyOf(command), process.exitValue(),
                new String(Files.readAllBytes(log), StandardCharsets.UTF_8));
    }
}
