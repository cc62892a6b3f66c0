package org.tracingfacility.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.tracingfacility.runtime.TestGroups.IO;
import org.tracingfacility.runtime.TestGroups.IORead;
import org.tracingfacility.runtime.support.EnhancedCodeSupport;
import org.tracingfacility.runtime.support.SynchronizedHolder;
import org.tracingfacility.runtime.timing.TimingFactory;
import org.tracingfacility.runtime.timing.TimingReport;

@ExtendWith(RegistryCleanup.class)
class TimingTest {
    private static final String MARSHAL = "org.tracingfacility.runtime.ReaderFixture.marshal(long,long)";
    private static final String MARSHAL_INTERVAL = "org.tracingfacility.runtime.ReaderFixture [marshal]";
    private static final String READ_INT = "org.tracingfacility.runtime.ReaderFixture.readInt(int)";
    private static final long SLEEP_MILLIS = 20;

    @Test
    void timesMethodsAndIntervals() throws Exception {
        TimingFactory timing = new TimingFactory();
        MethodMonitorRegistry.register(IORead.class, timing);
        ReaderFixture reader = new ReaderFixture();
        long started = System.nanoTime();
        for (int i = 0; i < 5; i++) {
            reader.marshal(i, SLEEP_MILLIS);
        }
        long elapsed = System.nanoTime() - started;
        for (int i = 0; i < 1000; i++) {
            reader.readInt(i);
        }

        TimingReport report = timing.report();
        TimingReport.Row marshal = report.row(MARSHAL);
        assertNotNull(marshal, report.toString());
        assertEquals(5, marshal.invocations());
        long sleep = TimeUnit.MILLISECONDS.toNanos(SLEEP_MILLIS);
        assertTrue(marshal.minimumNanos() >= sleep, report.toString());
        assertTrue(marshal.totalNanos() >= 5 * sleep && marshal.totalNanos() <= elapsed, report.toString());
        assertEquals(marshal.totalNanos() / 5, marshal.meanNanos());
        assertEquals(5, marshal.timedInvocations(), "without sampling every invocation is timed");
        assertTrue(marshal.minimumNanos() <= marshal.p50Nanos() && marshal.p50Nanos() <= marshal.p90Nanos()
                && marshal.p90Nanos() <= marshal.p99Nanos() && marshal.p99Nanos() <= marshal.maximumNanos(),
                report.toString());

        TimingReport.Row interval = report.row(MARSHAL_INTERVAL);
        assertNotNull(interval, report.toString());
        assertEquals(5, interval.invocations());
        assertTrue(interval.minimumNanos() >= sleep, report.toString());
        assertTrue(interval.totalNanos() <= marshal.totalNanos(), "the interval lies inside the method");

        assertEquals(1000, report.row(READ_INT).invocations());
        assertNull(report.row("org.tracingfacility.runtime.ReaderFixture.startMarshal(MethodMonitor,int)"),
                "info methods are points, not timed methods");
        assertEquals(MARSHAL, report.rows().get(0).name(), "slowest mean first");
    }

    @Test
    void theReportIsAJfrStyleTable() throws Exception {
        TimingFactory timing = new TimingFactory();
        MethodMonitorRegistry.register(IORead.class, timing);
        new ReaderFixture().marshal(1, 1);

        String[] lines = timing.report().toString().split("\n");
        assertEquals("Method Timing (TF)", lines[1].trim());
        assertTrue(lines[3].startsWith("Timed Method"), lines[3]);
        assertTrue(lines[3].contains("Invocations") && lines[3].contains("Average Time") && lines[3].contains("P99"));
        assertTrue(lines[4].matches("-+( -+){8}"), lines[4]);
        assertTrue(lines[5].startsWith(MARSHAL + " ") && lines[5].matches(".* 1 +[0-9.]+ ms .*"), lines[5]);
        assertEquals(lines[3].length(), lines[4].length(), "columns line up");
    }

    @Test
    void statisticsOfSeveralThreadsAddUpAfterTheThreadsEnd() throws Exception {
        TimingFactory timing = new TimingFactory();
        MethodMonitorRegistry.register(IO.class, timing);
        Runnable calls = () -> {
            ReaderFixture reader = new ReaderFixture();
            for (int i = 0; i < 500; i++) {
                reader.readInt(i);
            }
        };
        Thread first = new Thread(calls);
        Thread second = new Thread(calls);
        first.start();
        second.start();
        first.join();
        second.join();
        assertEquals(1000, timing.report().row(READ_INT).invocations());
        Thread third = new Thread(calls);
        third.start();
        third.join(); // an ended thread: the report folds its recorder into the retired totals
        assertEquals(1500, timing.report().row(READ_INT).invocations());
        assertEquals(1500, timing.report().row(READ_INT).invocations(), "and counts it once");
    }

    @Test
    void theFirstThreadAndOthersCountExactlyAlsoAfterTheFirstEnds() throws Exception {
        // The monitor keeps the recorder of the first thread that uses it (its owner) and
        // finds it without the ThreadLocal; other threads must still count into their own.
        TimingFactory timing = new TimingFactory();
        MethodMonitorRegistry.register(IO.class, timing);
        int calls = 200_000;
        java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
        Runnable timed = () -> {
            ReaderFixture reader = new ReaderFixture();
            try {
                go.await();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            for (int i = 0; i < calls; i++) {
                reader.readInt(i);
            }
        };
        Thread owner = new Thread(() -> new ReaderFixture().readInt(0)); // claims the monitor ...
        owner.start();
        owner.join();
        assertEquals(1, timing.report().row(READ_INT).invocations());
        Thread first = new Thread(timed); // ... which passes to one of these two once it has ended
        Thread second = new Thread(timed);
        first.start();
        second.start();
        go.countDown();
        new ReaderFixture().readInt(0); // and this thread too: at most one of the three owns it
        first.join();
        second.join();
        TimingReport.Row row = timing.report().row(READ_INT);
        assertEquals(2L * calls + 2, row.invocations(), "no call lost between racing threads");
        assertEquals(2L * calls + 2, row.timedInvocations());
        assertTrue(row.minimumNanos() <= row.meanNanos() && row.meanNanos() <= row.maximumNanos(), timing.report().toString());
        Thread later = new Thread(() -> { // the owner has ended: this one takes over
            ReaderFixture reader = new ReaderFixture();
            for (int i = 0; i < 1000; i++) {
                reader.readInt(i);
            }
        });
        later.start();
        later.join();
        new ReaderFixture().readInt(0);
        assertEquals(2L * calls + 1003, timing.report().row(READ_INT).invocations());
        assertEquals(2L * calls + 1003, timing.report().row(READ_INT).invocations(), "and counts each once");
    }

    @Test
    void methodsAreNamedWithTheirParameterTypesAndOverloadsOnce() {
        new Cart(); // registers, as its enhanced static initializer would
        TimingFactory timing = new TimingFactory();
        MethodMonitor monitor = timing.create(Cart.class);
        for (int ident = 0; ident < Cart.NAMES.length; ident++) {
            monitor.exitWithToken(ident, null, monitor.enterWithToken(ident));
        }

        List<String> names = new java.util.ArrayList<>();
        timing.report().rows().forEach(row -> names.add(row.name()));
        names.sort(null);
        String cart = Cart.class.getName();
        assertEquals(List.of(cart + ".<init>()", cart + ".checkout(String)", cart + ".join(int[],char)",
                cart + ".join(long[],char)", cart + ".total()"), names);
    }

    /**
     * A class as the registry sees it once enhanced: its tracing names, the overloads of
     * {@code join} told apart by the enhancer, {@code sum} renamed by {@code @TracingName}.
     */
    @IO
    static final class Cart {
        static final String[] NAMES = {"<init>", "checkout", "join(int[],char)", "join(long[],char)", "total"};

        static {
            EnhancedCodeSupport.registerClass(Cart.class, GeneratedCode.joined(NAMES), new Class<?>[] {IO.class},
                    new SynchronizedHolder<?>[] {new SynchronizedHolder<MethodMonitor>()});
        }

        String checkout(String customer) {
            return customer;
        }

        static String join(int[] values, char separator) {
            return "" + values.length + separator;
        }

        static String join(long[] values, char separator) {
            return "" + values.length + separator;
        }

        @org.tracingfacility.annotation.TracingName("total")
        int sum() {
            return 0;
        }
    }

    @Test
    void clearForgetsTheStatistics() {
        TimingFactory timing = new TimingFactory();
        MethodMonitorRegistry.register(IORead.class, timing);
        new ReaderFixture().readInt(1);
        timing.clear();
        assertEquals(List.of(), timing.report().rows());
        new ReaderFixture().readInt(1);
        assertEquals(1, timing.report().row(READ_INT).invocations());
        ReaderFixture.currentMonitor().clear();
        assertEquals(List.of(), timing.report().rows(), "a monitor's clear forgets its class's timers");
    }

    @Test
    void statisticsSurviveReRegistration() {
        TimingFactory timing = new TimingFactory();
        MethodMonitorRegistry.register(IORead.class, timing);
        new ReaderFixture().readInt(1);
        MethodMonitorRegistry.register(IO.class, timing); // a new monitor for ReaderFixture (IORead now via IO)
        MethodMonitorRegistry.clear(IORead.class);
        new ReaderFixture().readInt(1);
        assertEquals(2, timing.report().row(READ_INT).invocations());
    }

    @Test
    void samplingCountsEveryInvocationAndTimesOneInN() {
        TimingFactory sampling = new TimingFactory(4);
        MethodMonitorRegistry.register(IORead.class, sampling);
        ReaderFixture reader = new ReaderFixture();
        for (int i = 0; i < 1000; i++) {
            reader.readInt(i);
        }
        TimingReport report = sampling.report();
        TimingReport.Row row = report.row(READ_INT);
        assertEquals(1000, row.invocations());
        assertEquals(250, row.timedInvocations());
        assertEquals(row.meanNanos() * 1000, row.totalNanos(), "the total is estimated from the mean");
        assertTrue(report.toString().contains("Durations measured on 1 invocation in 4 per thread"), report.toString());
        assertEquals("timing(1/4)", sampling.toString());
    }

    @Test
    void timingAllocatesNothingPerCall() {
        MethodMonitorRegistry.register(IORead.class, new TimingFactory());
        ReaderFixture reader = new ReaderFixture();
        for (int i = 0; i < 20_000; i++) {
            reader.readInt(i); // warm up: recorder, rows
        }
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(thread);
        for (int i = 0; i < 100_000; i++) {
            reader.readInt(i);
        }
        long allocated = threads.getThreadAllocatedBytes(thread) - before;
        assertTrue(allocated < 10_000, allocated + " bytes allocated by 100,000 timed calls");
    }
}
