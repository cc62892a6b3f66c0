package org.tracingfacility.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import javax.management.JMX;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.tracingfacility.runtime.TestGroups.IO;
import org.tracingfacility.runtime.TestGroups.Nesting;
import org.tracingfacility.runtime.profile.CallTree;
import org.tracingfacility.runtime.profile.ProfileFactory;

@ExtendWith(RegistryCleanup.class)
class ProfileTest {
    private static final String COPY = "org.tracingfacility.runtime.WriterFixture.copy";
    private static final String WRITE = "org.tracingfacility.runtime.WriterFixture.write";
    private static final String READ_INT = "org.tracingfacility.runtime.ReaderFixture.readInt";
    private static final String DEPTH = "org.tracingfacility.runtime.NestingFixture.depth";

    @Test
    void buildsTheCallingContextTreeWithCallsAndTimes() throws Exception {
        ProfileFactory profile = new ProfileFactory();
        MethodMonitorRegistry.register(IO.class, profile);
        MethodMonitorRegistry.register(Nesting.class, profile);
        for (int i = 0; i < 10; i++) {
            new WriterFixture().copy(i);
        }
        new ReaderFixture().readInt(1); // the same method from another context: a separate node
        long sleep = TimeUnit.MILLISECONDS.toNanos(20);
        new NestingFixture().depth(2, 20);

        CallTree all = profile.profile();
        CallTree copy = all.child(COPY);
        assertNotNull(copy, all.children().toString());
        assertEquals(10, copy.calls());
        assertEquals(10, copy.child(READ_INT).calls());
        assertEquals(10, copy.child(WRITE).calls());
        assertEquals(1, all.child(READ_INT).calls(), "readInt called from the top is its own context");
        assertEquals(copy.inclusiveNanos(),
                copy.exclusiveNanos() + copy.child(READ_INT).inclusiveNanos() + copy.child(WRITE).inclusiveNanos());

        CallTree outer = all.child(DEPTH);
        CallTree middle = outer.child(DEPTH);
        CallTree leaf = middle.child(DEPTH);
        assertTrue(leaf.children().isEmpty(), "recursion is a path of contexts, three deep");
        assertTrue(leaf.exclusiveNanos() >= sleep, leaf.toString());
        assertTrue(outer.inclusiveNanos() >= middle.inclusiveNanos() && middle.inclusiveNanos() >= leaf.inclusiveNanos());
        assertTrue(outer.exclusiveNanos() < sleep / 2, "the sleep is the leaf's own time: " + outer);
        assertEquals(all.inclusiveNanos(), all.children().stream().mapToLong(CallTree::inclusiveNanos).sum());
        List<CallTree> top = all.children();
        for (int i = 1; i < top.size(); i++) {
            assertTrue(top.get(i - 1).inclusiveNanos() >= top.get(i).inclusiveNanos(), "the most time first: " + top);
        }
    }

    /**
     * {@code calls}: the same tree, counting calls only (no clock read, every time zero);
     * contexts ordered, folded and drawn by calls, those below included.
     */
    @Test
    void countingCallsBuildsTheSameTreeWithCallsAndNoTimes() throws Exception {
        ProfileFactory calls = ProfileFactory.countingCalls();
        assertEquals("calls", calls.toString());
        MethodMonitorRegistry.register(IO.class, calls);
        MethodMonitorRegistry.register(Nesting.class, calls);
        for (int i = 0; i < 10; i++) {
            new WriterFixture().copy(i);
        }
        new ReaderFixture().readInt(1);
        new NestingFixture().depth(2, 20);

        CallTree all = calls.profile();
        assertTrue(!all.timed());
        CallTree copy = all.child(COPY);
        assertEquals(10, copy.calls());
        assertEquals(10, copy.child(READ_INT).calls());
        assertEquals(10, copy.child(WRITE).calls());
        assertEquals(30, copy.inclusiveCalls());
        assertEquals(1, all.child(READ_INT).calls());
        CallTree outer = all.child(DEPTH);
        assertEquals(1, outer.child(DEPTH).child(DEPTH).calls());
        assertEquals(3, outer.inclusiveCalls());
        assertEquals(0, copy.inclusiveNanos() + copy.exclusiveNanos() + outer.inclusiveNanos() + all.inclusiveNanos(),
                "nothing is timed");
        assertEquals(List.of(COPY, DEPTH, READ_INT), all.children().stream().map(CallTree::name)
                .collect(Collectors.toList()), "the most calls first");

        List<String> folded = List.of(calls.folded().split("\n"));
        assertTrue(folded.contains(COPY + " 10") && folded.contains(COPY + ";" + WRITE + " 10")
                && folded.contains(DEPTH + ";" + DEPTH + ";" + DEPTH + " 1") && folded.contains(READ_INT + " 1"),
                "each context weighs its calls: " + folded);
        String html = calls.html("calls");
        assertTrue(html.contains("\"u\":\"calls\"") && html.contains("\"n\":\"" + COPY + "\",\"c\":10,\"i\":30,\"e\":10,"),
                html);
    }

    @Test
    void deepRecursionIsCutAtTheMaximumDepthAndStillExports() throws Exception {
        ProfileFactory profile = new ProfileFactory();
        MethodMonitorRegistry.register(Nesting.class, profile);
        int calls = 2000;
        Thread deep = new Thread(null, () -> {
            try {
                new NestingFixture().depth(calls - 1, 0);
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        }, "deep", 64L << 20);
        deep.start();
        deep.join();

        CallTree node = profile.profile().child(DEPTH);
        int levels = 0;
        while (node != null) {
            levels++;
            assertEquals(1, node.calls());
            node = node.child(DEPTH);
        }
        assertEquals(512, levels, "contexts kept; the calls below count as the deepest one's time");
        assertEquals(512, profile.folded().split("\n").length);
        assertTrue(profile.html("deep").contains("\"k\":[]"));
    }

    @Test
    void mergesTheTreesOfThreadsIncludingEndedOnes() throws Exception {
        ProfileFactory profile = new ProfileFactory();
        MethodMonitorRegistry.register(IO.class, profile);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            Thread thread = new Thread(() -> {
                for (int i = 0; i < 250; i++) {
                    new WriterFixture().copy(i);
                }
            });
            thread.start();
            threads.add(thread);
        }
        for (Thread thread : threads) {
            thread.join();
        }
        new WriterFixture().copy(1);
        CallTree copy = profile.profile().child(COPY);
        assertEquals(1001, copy.calls());
        assertEquals(1001, copy.child(READ_INT).calls());
        assertEquals(1001, profile.profile().child(COPY).calls(), "ended threads are kept once, not twice");

        profile.clear();
        assertEquals(0, profile.profile().child(COPY).calls());
    }

    @Test
    void foldedStacksHaveOneLinePerContextWithItsExclusiveNanos() {
        ProfileFactory profile = new ProfileFactory();
        MethodMonitorRegistry.register(IO.class, profile);
        new WriterFixture().copy(7);

        CallTree copy = profile.profile().child(COPY);
        List<String> lines = List.of(profile.folded().split("\n"));
        assertEquals(List.of(
                COPY + " " + copy.exclusiveNanos(),
                COPY + ";" + copy.children().get(0).name() + " " + copy.children().get(0).exclusiveNanos(),
                COPY + ";" + copy.children().get(1).name() + " " + copy.children().get(1).exclusiveNanos()), lines);
    }

    /** Once its contexts exist, a profiled call allocates nothing (this thread's allocated bytes). */
    @Test
    void aProfiledCallAllocatesNothingOnceItsContextExists() {
        ProfileFactory profile = new ProfileFactory();
        MethodMonitorRegistry.register(IO.class, profile);
        ReaderFixture reader = new ReaderFixture();
        int calls = 200_000;
        long sum = 0;
        for (int i = 0; i < calls; i++) {
            sum += reader.readInt(i); // warm-up: the context, the JIT
        }
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = threads.getThreadAllocatedBytes(Thread.currentThread().getId());
        for (int i = 0; i < calls; i++) {
            sum += reader.readInt(i);
        }
        long allocated = threads.getThreadAllocatedBytes(Thread.currentThread().getId()) - before;
        assertTrue(sum != 0);
        assertEquals(2L * calls, profile.profile().child(READ_INT).calls());
        assertTrue(allocated < calls / 10, allocated + " bytes allocated for " + calls + " calls");
    }

    @Test
    void theHtmlPageCarriesTheTreeAndNeedsNoNetwork() {
        ProfileFactory profile = new ProfileFactory();
        MethodMonitorRegistry.register(IO.class, profile);
        new WriterFixture().copy(7);

        String html = profile.html("a <profile>");
        assertTrue(html.contains("<title>a &lt;profile&gt;</title>"), html);
        assertTrue(html.contains("\"n\":\"" + COPY + "\",\"c\":1,"), html);
        assertTrue(html.contains("\"n\":\"" + READ_INT + "\",\"c\":1,"), html);
        assertTrue(!html.contains("src=") && !html.contains("href=") && !html.contains("http"),
                "nothing is fetched");
    }

    @Test
    void profileIsADefaultNameAndTheBeanDumpsIt(@TempDir Path dir) throws Exception {
        assertTrue(MethodMonitorFactoryDefaults.names().contains("profile"));
        assertSame(MethodMonitorFactoryDefaults.profile(), MethodMonitorFactoryDefaults.byName("profile"));
        Thread registration = TracingFacilityBean.pendingRegistration();
        if (registration != null) {
            registration.join(10_000);
        }
        TracingFacilityMXBean bean = JMX.newMXBeanProxy(ManagementFactory.getPlatformMBeanServer(),
                new ObjectName(TracingFacilityMXBean.OBJECT_NAME), TracingFacilityMXBean.class);
        MethodMonitorFactoryDefaults.profile().clear();
        bean.register("IO", "profile");
        try {
            new WriterFixture().copy(3);

            assertTrue(bean.getProfileFolded().startsWith(COPY + " "), bean.getProfileFolded());
            Path folded = dir.resolve("profile.folded");
            assertEquals(folded.toAbsolutePath().toString(), bean.dumpProfile(folded.toString()));
            assertTrue(Files.readString(folded).contains(COPY + ";" + READ_INT + " "));
            Path html = dir.resolve("profile.html");
            bean.dumpProfile(html.toString());
            assertTrue(Files.readString(html).startsWith("<!DOCTYPE html>"));
        } finally {
            // Nothing left for the process-wide profile to write into the module at exit.
            MethodMonitorFactoryDefaults.profile().clear();
        }
    }

    @Test
    void theWrittenFileIsReadableAsTheUmaskAllowsLikeAnyOtherOutput(@TempDir Path dir) throws Exception {
        assumeTrue(dir.getFileSystem().supportedFileAttributeViews().contains("posix"));
        ProfileFactory profile = new ProfileFactory();
        MethodMonitorRegistry.register(IO.class, profile);
        new WriterFixture().copy(2);

        Path ordinary = Files.writeString(dir.resolve("ordinary.txt"), "x");
        Path html = profile.write(dir.resolve("tf-profile.html"));
        Path folded = profile.write(dir.resolve("tf-profile.folded"));
        assertEquals(Files.getPosixFilePermissions(ordinary), Files.getPosixFilePermissions(html));
        assertEquals(Files.getPosixFilePermissions(ordinary), Files.getPosixFilePermissions(folded));
        try (var left = Files.list(dir)) {
            assertEquals(List.of("ordinary.txt", "tf-profile.folded", "tf-profile.html"),
                    left.map(file -> file.getFileName().toString()).sorted().collect(Collectors.toList()),
                    "no temporary file stays");
        }
    }

    @Test
    void writtenAtExitToTheFileTheCommandLineNames(@TempDir Path dir) throws Exception {
        Path output = dir.resolve("run.folded");
        assertEquals(List.of("copied 6", "TF: profile written to " + output), runForked(output));
        List<String> stacks = new ArrayList<>();
        for (String line : Files.readAllLines(output)) {
            stacks.add(line.substring(0, line.lastIndexOf(' ')));
        }
        stacks.sort(null);
        assertEquals(List.of(COPY, COPY + ";" + READ_INT, COPY + ";" + WRITE), stacks);
        assertNull(new ProfileFactory().profile().child(COPY), "a fresh factory has no profile");
    }

    @Test
    void callsAreWrittenAtExitToTheirOwnFile(@TempDir Path dir) throws Exception {
        Path output = dir.resolve("calls.folded");
        List<String> console = runForked("-Dtf.monitor=IO=calls", "-Dtf.calls.output=" + output);
        assertEquals(List.of("copied 6", "TF: profile of calls written to " + output), console);
        List<String> stacks = Files.readAllLines(output);
        stacks.sort(null);
        assertEquals(List.of(COPY + " 1", COPY + ";" + READ_INT + " 1", COPY + ";" + WRITE + " 1"), stacks,
                "one copy, counted: no times");
    }

    @Test
    void aFileThatCannotBeWrittenIsSaidInOneLineAndTheApplicationEndsNormally(@TempDir Path dir) throws Exception {
        Path notADirectory = Files.writeString(dir.resolve("plain-file"), "x");
        Path output = notADirectory.resolve("run.html");
        List<String> console = runForked(output);
        assertEquals(2, console.size(), console.toString());
        assertEquals("copied 6", console.get(0));
        assertTrue(console.get(1).startsWith("TF: profile not written to " + output + ": "), console.get(1));
    }

    /** ForkedMain with {@code -Dtf.monitor=IO=profile}; its console lines (the JVM exits 0). */
    private static List<String> runForked(Path output) throws Exception {
        return runForked("-Dtf.monitor=IO=profile", "-Dtf.profile.output=" + output);
    }

    /** ForkedMain with these properties; its console lines (the JVM exits 0). */
    private static List<String> runForked(String... properties) throws Exception {
        return List.of(ForkedJvm.run(List.of(properties), ForkedMain.class, "3").split("\n"));
    }
}
