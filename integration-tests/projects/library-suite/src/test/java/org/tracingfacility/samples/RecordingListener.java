package org.tracingfacility.samples;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestPlan;
import org.tracingfacility.annotation.Filtered;
import org.tracingfacility.runtime.MethodMonitor;
import org.tracingfacility.runtime.MethodMonitorRegistry;
import org.tracingfacility.runtime.TimingPointType;

/**
 * Attaches a recording monitor to the filter-selected group for the whole test run and
 * writes what it saw: how many events, and whether every enter was matched by exactly one
 * exit on its thread.
 */
public final class RecordingListener implements TestExecutionListener {
    private static final LongAdder ENTERS = new LongAdder();
    private static final LongAdder EXITS = new LongAdder();
    private static final LongAdder EXCEPTIONS = new LongAdder();
    private static final LongAdder UNMATCHED_EXITS = new LongAdder();
    private static final Set<Class<?>> CLASSES = ConcurrentHashMap.newKeySet();
    private static final ThreadLocal<int[]> DEPTH = ThreadLocal.withInitial(() -> new int[1]);

    @Override
    public void testPlanExecutionStarted(TestPlan plan) {
        MethodMonitorRegistry.register(Filtered.class, Recording::new);
    }

    @Override
    public void testPlanExecutionFinished(TestPlan plan) {
        MethodMonitorRegistry.clear(Filtered.class);
        String report = "enters=" + ENTERS.sum() + "\nexits=" + EXITS.sum() + "\nexceptions=" + EXCEPTIONS.sum()
                + "\nunmatchedExits=" + UNMATCHED_EXITS.sum() + "\nclasses=" + CLASSES.size()
                + "\nopenOnMainThread=" + DEPTH.get()[0] + "\n";
        Path file = Paths.get(System.getProperty("tf.recording.file", "tf-recording.txt"));
        try {
            Files.write(file, report.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static final class Recording implements MethodMonitor {
        private final Class<?> cls;

        Recording(Class<?> cls) {
            this.cls = cls;
            CLASSES.add(cls);
        }

        @Override public Class<?> myClass() { return cls; }

        @Override public void enter(int ident, Object... args) {
            ENTERS.increment();
            DEPTH.get()[0]++;
        }

        @Override public void info(Object[] args, int callerIdent, int selfIdent, TimingPointType tpType) {}

        @Override public void exit(int ident) { exited(); }

        @Override public void exit(int ident, Object result) { exited(); }

        @Override public void exception(int ident, Throwable thr) { EXCEPTIONS.increment(); }

        @Override public void clear() {}

        private static void exited() {
            EXITS.increment();
            int[] depth = DEPTH.get();
            if (depth[0] == 0) {
                UNMATCHED_EXITS.increment();
            } else {
                depth[0]--;
            }
        }
    }
}
