package org.tracingfacility.runtime;

import java.lang.management.ManagementFactory;
import org.tracingfacility.runtime.timing.TimingFactory;
import org.tracingfacility.runtime.timing.TimingReport;

/**
 * Times calls in a JVM of its own, whose command line decides which clock timing may read, and
 * prints what {@link TimingClockTest} checks: the report's clock line, the measured durations
 * beside the wall time around them, and the bytes allocated by timed calls.
 */
public final class TimingClockMain {
    static final long SLEEP_MILLIS = 20;
    static final int SLEEPS = 3;

    private TimingClockMain() {
    }

    public static void main(String[] args) throws Exception {
        TimingFactory timing = new TimingFactory();
        MethodMonitorRegistry.register(TestGroups.IORead.class, timing);
        ReaderFixture reader = new ReaderFixture();

        long started = System.nanoTime();
        for (int i = 0; i < SLEEPS; i++) {
            reader.marshal(i, SLEEP_MILLIS);
        }
        long elapsed = System.nanoTime() - started;

        for (int i = 0; i < 20_000; i++) {
            reader.readInt(i); // warm up: recorder, rows, compiled clock read
        }
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(thread);
        for (int i = 0; i < 100_000; i++) {
            reader.readInt(i);
        }
        long allocated = threads.getThreadAllocatedBytes(thread) - before;

        TimingReport report = timing.report();
        TimingReport.Row marshal = report.row("org.tracingfacility.runtime.ReaderFixture.marshal(long,long)");
        for (String line : report.toString().split("\n")) {
            if (line.startsWith("Clock: ")) {
                System.out.println(line);
            }
        }
        System.out.println("minimum " + marshal.minimumNanos());
        System.out.println("total " + marshal.totalNanos());
        System.out.println("elapsed " + elapsed);
        System.out.println("allocated " + allocated);
    }
}
