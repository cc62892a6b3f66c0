package org.tracingfacility.bench;

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
 * The yardstick: the unenhanced method timed by JDK 25's JFR method timing (JEP 520). Needs a
 * JDK 25 to run; compare with {@link MonitorOverheadBenchmark#enhancedTiming} and
 * {@link MonitorOverheadBenchmark#plain} from the same run.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = "-XX:StartFlightRecording:method-timing=org.tracingfacility.bench.PlainWork::work")
@State(Scope.Thread)
public class JfrMethodTimingBenchmark {
    private final PlainWork plain = new PlainWork();
    private int x = 42;

    @Benchmark
    public int plainUnderJfrMethodTiming() {
        return plain.work(x++);
    }
}
