package org.tracingfacility.bench;

import java.util.BitSet;
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
 * A JDK method, {@code java.util.BitSet::get}, called as an application calls it. The
 * benchmark is the same in every configuration; {@code jdk-method.sh} runs it in forks
 * started without tracing, with the TF agent tracing the method and no monitor attached,
 * with the agent and {@code timing}, and under JFR method timing of the same method (issue
 * 47, item 7). {@code BitSet} is loaded before the agent starts, so the agent retransforms
 * it: the guarded shape of traced JDK classes.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class JdkMethodBenchmark {
    private final BitSet bits = new BitSet(64);
    private int index;

    public JdkMethodBenchmark() {
        for (int i = 0; i < 64; i += 3) {
            bits.set(i);
        }
    }

    @Benchmark
    public boolean bitSetGet() {
        return bits.get(index++ & 63);
    }
}
