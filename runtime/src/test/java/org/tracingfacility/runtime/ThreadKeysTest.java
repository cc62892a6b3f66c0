package org.tracingfacility.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The guard's per-thread tables key threads by id where {@code jdk.internal.misc} is exported
 * to TF (as the agent does), by identity hash otherwise; either way each live thread has a key
 * of its own and its at-work mark stays its own. Each case runs {@link ThreadKeysMain} in a JVM
 * of its own, since the choice is made once per JVM.
 */
class ThreadKeysTest {
    @Test
    void withTheExportThreadsAreKeyedByTheirIds() throws Exception {
        String out = run(List.of("--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED"));
        assertEquals("byThreadId true\nmainIsId true\nthreadsAreIds true\ndistinct 16/16\nmarksOwn true\n"
                + "mainStillAtWork true idleAfter true\n", out);
    }

    @Test
    void withoutItThreadsAreKeyedByIdentityHash() throws Exception {
        String out = run(List.of());
        assertEquals("byThreadId false\n", out.substring(0, out.indexOf('\n') + 1), out);
        assertEquals("marksOwn true\nmainStillAtWork true idleAfter true\n",
                out.substring(out.indexOf("marksOwn")), out);
    }

    private static String run(List<String> jvmOptions) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), "-Dtf.jmx=false",
                ThreadKeysMain.class.getName()));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, process.waitFor(), output);
        return output.replace(System.lineSeparator(), "\n");
    }
}
