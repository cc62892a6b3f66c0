package org.tracingfacility.bench;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.tracingfacility.runtime.MethodMonitorFactoryDefaults;
import org.tracingfacility.runtime.MethodMonitorRegistry;
import org.tracingfacility.runtime.timing.TimingFactory;

/**
 * The cost of a monitored 1-ns method: unenhanced ({@link PlainWork}), and enhanced by
 * {@code tf-enhance} ({@link MonitoredWork}) with no factory, with noOp and with timing. Each
 * benchmark runs in forks of its own, so the registration a state makes holds for that
 * benchmark only. Run with {@code -prof gc} for bytes allocated per call.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
@State(Scope.Thread)
public class MonitorOverheadBenchmark {
    /** Lets tf-runtime (an unnamed module here) read JFR's tick counter. */
    static final String ADD_EXPORTS = "--add-exports=jdk.jfr/jdk.jfr.internal=ALL-UNNAMED";

    private final PlainWork plain = new PlainWork();
    private final MonitoredWork enhanced = new MonitoredWork();
    private int x = 42;

    @Setup(Level.Trial)
    public void checkEnhanced() {
        MonitoredWork.checkEnhanced();
    }

    /** Attaches noOp to the benchmark group. */
    @State(Scope.Benchmark)
    public static class NoOp {
        @Setup(Level.Trial)
        public void register() {
            MethodMonitorRegistry.register(BenchGroup.class, MethodMonitorFactoryDefaults.noOp());
        }
    }

    /** Attaches the timing factory to the benchmark group. */
    @State(Scope.Benchmark)
    public static class Timing {
        @Setup(Level.Trial)
        public void register() {
            MethodMonitorRegistry.register(BenchGroup.class, MethodMonitorFactoryDefaults.timing());
        }
    }

    /**
     * Attaches the timing factory to the benchmark group in a JVM that exports JFR's internal
     * package, so that timing reads JFR's tick counter instead of System.nanoTime().
     */
    @State(Scope.Benchmark)
    public static class TimingJfrTicks {
        @Setup(Level.Trial)
        public void register() {
            TimingFactory timing = MethodMonitorFactoryDefaults.timing();
            String clock = timing.report().toString();
            if (!clock.contains("Clock: JFR's tick counter")) {
                throw new IllegalStateException("timing does not read JFR's tick counter here:" + clock);
            }
            MethodMonitorRegistry.register(BenchGroup.class, timing);
        }
    }

    /**
     * As {@link TimingJfrTicks}, but another thread calls the method first and stays alive.
     * Until issue #50 the monitor remembered that one thread (its owner) and the benchmark's
     * thread took the way of every other thread, through the factory's {@code ThreadLocal};
     * now the monitor keeps a claim per slot of the threads' identity hashes, and the
     * benchmark's thread has its own unless the two hashes share a slot (one fork in eight).
     */
    @State(Scope.Benchmark)
    public static class TimingJfrTicksOtherOwner {
        private final CountDownLatch done = new CountDownLatch(1);

        @Setup(Level.Trial)
        public void register() throws InterruptedException {
            new TimingJfrTicks().register();
            CountDownLatch claimed = new CountDownLatch(1);
            Thread owner = new Thread(() -> {
                new MonitoredWork().work(0);
                claimed.countDown();
                try {
                    done.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "tf-monitor-owner");
            owner.setDaemon(true);
            owner.start();
            claimed.await();
        }

        @TearDown(Level.Trial)
        public void release() {
            done.countDown();
        }
    }

    /**
     * Attaches a timing factory that counts every invocation and measures one in
     * {@code sampleEvery}; a huge value isolates what timing costs besides the clock.
     */
    @State(Scope.Benchmark)
    public static class SampledTiming {
        @Param("8")
        public int sampleEvery;

        @Setup(Level.Trial)
        public void register() {
            MethodMonitorRegistry.register(BenchGroup.class, new TimingFactory(sampleEvery));
        }
    }

    @Benchmark
    public int plain() {
        return plain.work(x++);
    }

    @Benchmark
    public int enhancedDisabled() {
        return enhanced.work(x++);
    }

    @Benchmark
    public int enhancedNoOp(NoOp registered) {
        return enhanced.work(x++);
    }

    @Benchmark
    public int enhancedTiming(Timing registered) {
        return enhanced.work(x++);
    }

    @Benchmark
    @Fork(value = 2, jvmArgsAppend = ADD_EXPORTS)
    public int enhancedTimingJfrTicks(TimingJfrTicks registered) {
        return enhanced.work(x++);
    }

    @Benchmark
    @Fork(value = 2, jvmArgsAppend = ADD_EXPORTS)
    public int enhancedTimingJfrTicksOtherOwner(TimingJfrTicksOtherOwner registered) {
        return enhanced.work(x++);
    }

    @Benchmark
    public int enhancedTimingSampled(SampledTiming registered) {
        return enhanced.work(x++);
    }
}
