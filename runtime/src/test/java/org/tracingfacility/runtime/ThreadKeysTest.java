package org.tracingfacility.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
        return ForkedJvm.run(jvmOptions, ThreadKeysMain.class);
    }
}
