package org.tracingfacility.bench;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The floor under any exact timing in Java: timing a call reads a clock twice. System.nanoTime()
 * against JFR's tick counter, which the timing factory reads when the JVM exports
 * {@code jdk.jfr.internal} to it (the same handle shape as the runtime's TimingClock).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
@State(Scope.Thread)
public class ClockBenchmark {
    private final PlainWork plain = new PlainWork();
    private int x = 42;

    /** Resolved lazily: only the forks of {@link #jfrCounterTime} have the export. */
    private static final class Ticks {
        static final MethodHandle COUNTER_TIME;

        static {
            try {
                COUNTER_TIME = MethodHandles.lookup().findStatic(Class.forName("jdk.jfr.internal.JVM"),
                        "counterTime", MethodType.methodType(long.class));
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }
    }

    @Benchmark
    public long nanoTime() {
        return System.nanoTime();
    }

    @Benchmark
    @Fork(value = 2, jvmArgsAppend = MonitorOverheadBenchmark.ADD_EXPORTS)
    public long jfrCounterTime() throws Throwable {
        return (long) Ticks.COUNTER_TIME.invokeExact();
    }

    /** The least an exact measurement of the 1-ns method costs: two reads around it. */
    @Benchmark
    public long nanoTimeAroundWork() {
        long start = System.nanoTime();
        int result = plain.work(x++);
        return System.nanoTime() - start + result;
    }

    @Benchmark
    @Fork(value = 2, jvmArgsAppend = MonitorOverheadBenchmark.ADD_EXPORTS)
    public long jfrCounterTimeAroundWork() throws Throwable {
        long start = (long) Ticks.COUNTER_TIME.invokeExact();
        int result = plain.work(x++);
        return (long) Ticks.COUNTER_TIME.invokeExact() - start + result;
    }
}
