package bench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.Arrays;

/**
 * The JVM that run.sh attaches to: on each "measure <label>" line it times many calls of
 * {@code Work.work} (a method of a few nanoseconds) and prints the median ns per call of its
 * rounds. Tracing is added and removed between measurements, from outside, in this same JVM.
 */
public final class PerCall {
    static final int CALLS = 20_000_000;
    static final int ROUNDS = 7;
    static volatile long sink;

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        measure(2); // warm-up: compiled before the first figure
        System.out.println("ready " + ProcessHandle.current().pid());
        for (String line; (line = in.readLine()) != null; ) {
            if (line.startsWith("measure ")) {
                System.out.printf("%-28s %8.2f ns/call%n", line.substring(8), measure(ROUNDS));
            } else if (line.equals("exit")) {
                return;
            }
        }
    }

    /** Median of {@code rounds} rounds, after one round that lets the JIT compile the new code. */
    static double measure(int rounds) {
        loop();
        double[] perCall = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            long start = System.nanoTime();
            loop();
            perCall[r] = (System.nanoTime() - start) / (double) CALLS;
        }
        Arrays.sort(perCall);
        return perCall[rounds / 2];
    }

    static void loop() {
        long acc = 0;
        for (int i = 0; i < CALLS; i++) {
            acc += Work.work(i);
        }
        sink = acc;
    }
}

/** The traced method: small enough that what tracing adds shows. */
final class Work {
    static long work(long x) {
        return x * 31 + (x >>> 7);
    }
}
