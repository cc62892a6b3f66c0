package org.tracingfacility.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

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

    private static List<String> run(String property, String argument) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "-Dtf.jmx=false", property,
                ForkedMain.class.getName(), argument));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, process.waitFor(), output);
        return List.of(output.split(System.lineSeparator()));
    }
}
