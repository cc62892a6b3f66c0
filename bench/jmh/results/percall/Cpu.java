import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.BitSet;

/** ns of thread CPU time per BitSet.get call: median of rounds. */
public class Cpu {
    static int sink;
    public static void main(String[] args) {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        BitSet bits = new BitSet(64);
        for (int i = 0; i < 64; i += 3) bits.set(i);
        int n = 5_000_000;
        int rounds = 15;
        clock = args.length > 0 && args[0].equals("clock");
        double[] r = new double[rounds];
        for (int w = 0; w < 4; w++) loop(bits, n);
        for (int k = 0; k < rounds; k++) {
            long t0 = mx.getCurrentThreadCpuTime();
            loop(bits, n);
            r[k] = (mx.getCurrentThreadCpuTime() - t0) / (double) n;
        }
        Arrays.sort(r);
        System.out.printf("median %.2f min %.2f%n", r[rounds / 2], r[0]);
    }
    static boolean clock;
    static long total;
    static void loop(BitSet bits, int n) {
        if (clock) { loopClock(bits, n); return; }
        int s = 0;
        for (int i = 0; i < n; i++) if (bits.get(i & 63)) s++;
        sink += s;
    }
    /** The floor: two clock reads around each call, their difference summed (what timing must do at least). */
    static void loopClock(BitSet bits, int n) {
        int s = 0;
        long t = 0;
        for (int i = 0; i < n; i++) {
            long start = System.nanoTime();
            if (bits.get(i & 63)) s++;
            t += System.nanoTime() - start;
        }
        sink += s;
        total += t;
    }
}
