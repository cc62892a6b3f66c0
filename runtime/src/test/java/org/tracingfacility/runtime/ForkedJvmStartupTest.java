package org.tracingfacility.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code java -Dtf.monitor=...} on an unchanged application, in a JVM of its own. */
class ForkedJvmStartupTest {
    @Test
    void dprintAttachedFromTheCommandLine() throws Exception {
        List<String> lines = run("-Dtf.monitor=IO=dprint", "3");
        assertEquals(List.of(
                "TF [main] > org.tracingfacility.runtime.WriterFixture.copy(3)",
                "TF [main]   > org.tracingfacility.runtime.ReaderFixture.readInt(3)",
                "TF [main]   < org.tracingfacility.runtime.ReaderFixture.readInt = 6",
                "TF [main]   > org.tracingfacility.runtime.WriterFixture.write(\"6\")",
                "TF [main]   < org.tracingfacility.runtime.WriterFixture.write",
                "TF [main] < org.tracingfacility.runtime.WriterFixture.copy = \"6\"",
                "copied 6"), lines);
    }

    @Test
    void aSubgroupWithoutMethodMonitorGroupIsSwitchedOnByItself() throws Exception {
        List<String> lines = run("-Dtf.monitor=IOWrite=dprint", "3");
        assertEquals(List.of(
                "TF [main] > org.tracingfacility.runtime.WriterFixture.copy(3)",
                "TF [main]   > org.tracingfacility.runtime.WriterFixture.write(\"6\")",
                "TF [main]   < org.tracingfacility.runtime.WriterFixture.write",
                "TF [main] < org.tracingfacility.runtime.WriterFixture.copy = \"6\"",
                "copied 6"), lines);
    }

    @Test
    void factoriesOfAProviderAndOfAClassNameNeedNoCode() throws Exception {
        List<String> lines = run("-Dtf.monitor=IORead=printing;IOWrite=org.tracingfacility.runtime.PrintingFactory", "3");
        assertEquals(List.of(
                "by class name: enter WriterFixture.copy",
                "provided: enter ReaderFixture.readInt",
                "provided: exit ReaderFixture.readInt",
                "by class name: enter WriterFixture.write",
                "by class name: exit WriterFixture.write",
                "by class name: exit WriterFixture.copy",
                "copied 6"), lines);
    }

    @Test
    void aMistakeIsReportedAndTheApplicationRuns() throws Exception {
        List<String> lines = run("-Dtf.monitor=Nowhere=dprint", "2");
        assertEquals(2, lines.size(), lines.toString());
        assertEquals("TF: -Dtf.monitor: unknown TF group 'Nowhere': not listed in any "
                + "META-INF/tf/tfannotations.properties on the class path, and no class of that name", lines.get(0));
        assertEquals("copied 4", lines.get(1));
    }

    @Test
    void timingChosenOnTheCommandLinePrintsItsTableAtExit() throws Exception {
        List<String> lines = run("-Dtf.monitor=IO=timing", "3");
        assertEquals("copied 6", lines.get(0));
        assertEquals("Method Timing (TF)", lines.get(2).trim(), lines.toString());
        assertTrue(lines.get(4).startsWith("Timed Method "), lines.toString());
        for (String method : List.of("WriterFixture.copy(int)", "ReaderFixture.readInt(int)", "WriterFixture.write(String)")) {
            assertTrue(lines.stream().anyMatch(line -> line.matches("org\\.tracingfacility\\.runtime\\."
                    + Pattern.quote(method) + " +1 .*")), method + " in " + lines);
        }
    }

    @Test
    void theTimingTableGoesToTheFileThePropertyNames(@TempDir Path dir) throws Exception {
        Path table = dir.resolve("timing.txt");
        List<String> lines = run("-Dtf.monitor=IO=timing", "-Dtf.timing.output=" + table, "3");
        assertEquals(List.of("copied 6", "TF: timing table written to " + table), lines);
        String written = new String(Files.readAllBytes(table), StandardCharsets.UTF_8);
        assertTrue(written.contains("Method Timing (TF)") && written.contains("ReaderFixture.readInt(int) "), written);
    }

    @Test
    void anUnwritableTimingFileIsSaidAndTheTableGoesToStandardError(@TempDir Path dir) throws Exception {
        List<String> lines = run("-Dtf.monitor=IO=timing", "-Dtf.timing.output=" + dir, "3");
        assertEquals("copied 6", lines.get(0));
        assertTrue(lines.get(1).startsWith("TF: -Dtf.timing.output: cannot write " + dir + " ("), lines.get(1));
        assertEquals("Method Timing (TF)", lines.get(3).trim(), lines.toString());
    }

    @Test
    void aTimingFileThatBlocksDoesNotHoldUpExitForLong(@TempDir Path dir) throws Exception {
        Path fifo = dir.resolve("nobody-reads-this");
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start().waitFor());
        long started = System.nanoTime();
        List<String> lines = run("-Dtf.monitor=IO=timing", "-Dtf.timing.output=" + fifo, "3");
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started);
        assertEquals(List.of("copied 6", "TF: the timing table was not written within 5000 ms; exiting without it (-Dtf.exit.wait=<ms> waits longer)"),
                lines);
        assertTrue(seconds < 30, "exit took " + seconds + " s");
    }

    @Test
    void operationTracerChosenOnTheCommandLinePrintsWhereAnExceptionWasThrown() throws Exception {
        List<String> lines = run("-Dtf.monitor=IORead=operationTracer", "fail");
        assertEquals(List.of(
                "TF operationTracer [main]: java.io.IOException: disk gone in ReaderFixture.readFails()",
                "caught disk gone"), lines);
    }

    private static List<String> run(String... arguments) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "-Dtf.jmx=false"));
        command.addAll(List.of(arguments).subList(0, arguments.length - 1));
        command.add(ForkedMain.class.getName());
        command.add(arguments[arguments.length - 1]);
        // The output is small: the pipe holds it until the JVM has ended, then it is read.
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            fail("the JVM did not exit within 60 s: " + command);
        }
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, process.exitValue(), output);
        return List.of(output.split(System.lineSeparator()));
    }
}
