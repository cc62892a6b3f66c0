package org.tracingfacility.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Timing reads JFR's tick counter when the JVM exports {@code jdk.jfr.internal} to TF, and
 * System.nanoTime() otherwise; either way the report's durations are nanoseconds of real
 * time and a timed call allocates nothing. Each case runs {@link TimingClockMain} in a JVM of
 * its own, since the clock is chosen once per JVM.
 */
class TimingClockTest {
    private static final String ADD_EXPORTS = "--add-exports=jdk.jfr/jdk.jfr.internal=ALL-UNNAMED";

    @Test
    void withoutTheExportTimingReadsNanoTime() throws Exception {
        Map<String, String> out = run(List.of());
        assertTrue(out.get("Clock:").startsWith("System.nanoTime()"), out.toString());
        assertDurationsAreRealTime(out);
    }

    @Test
    void withTheExportTimingReadsJfrTicks() throws Exception {
        Assumptions.assumeTrue(ModuleLayer.boot().findModule("jdk.jfr").isPresent(), "this JDK has no JFR");
        Map<String, String> out = run(List.of(ADD_EXPORTS));
        assertTrue(out.get("Clock:").startsWith("JFR's tick counter, "), out.toString());
        assertDurationsAreRealTime(out);
    }

    @Test
    void aJvmWithoutJfrFallsBackToNanoTime() throws Exception {
        // --limit-modules leaves jdk.jfr out of the boot layer: the export names a missing module.
        Map<String, String> out = run(List.of("--limit-modules", "java.base,java.management,jdk.management",
                ADD_EXPORTS));
        assertTrue(out.get("Clock:").startsWith("System.nanoTime()"), out.toString());
        assertDurationsAreRealTime(out);
    }

    /** Each sleep measured at no less than it slept, all of them within the wall time around them. */
    private static void assertDurationsAreRealTime(Map<String, String> out) {
        long sleep = TimeUnit.MILLISECONDS.toNanos(TimingClockMain.SLEEP_MILLIS);
        long minimum = Long.parseLong(out.get("minimum"));
        long total = Long.parseLong(out.get("total"));
        long elapsed = Long.parseLong(out.get("elapsed"));
        assertTrue(minimum >= sleep, "shortest call " + minimum + " ns for a sleep of " + sleep + " ns; " + out);
        assertTrue(total >= TimingClockMain.SLEEPS * sleep && total <= elapsed,
                "total " + total + " ns, wall time around the calls " + elapsed + " ns; " + out);
        long allocated = Long.parseLong(out.get("allocated"));
        assertTrue(allocated < 10_000, allocated + " bytes allocated by 100,000 timed calls; " + out);
    }

    /** The output of {@link TimingClockMain}, by its first word. */
    private static Map<String, String> run(List<String> jvmOptions) throws Exception {
        String output = ForkedJvm.run(jvmOptions, TimingClockMain.class);
        Map<String, String> values = new HashMap<>();
        for (String line : output.split("\n")) {
            int space = line.indexOf(' ');
            if (space > 0) {
                values.put(line.substring(0, space), line.substring(space + 1));
            }
        }
        return values;
    }
}
