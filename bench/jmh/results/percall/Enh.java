import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import org.tracingfacility.bench.BenchGroup;
import org.tracingfacility.bench.MonitoredWork;
import org.tracingfacility.bench.PlainWork;
import org.tracingfacility.runtime.MethodMonitorFactoryDefaults;
import org.tracingfacility.runtime.MethodMonitorRegistry;

/** ns of thread CPU time per call, without the agent: plain, enhanced with timing, or two clock reads. Median of 15 rounds. */
public class Enh {
    static int sink;
    public static void main(String[] args) {
        String mode = args[0];
        if (mode.equals("timing")) {
            MethodMonitorRegistry.register(BenchGroup.class, MethodMonitorFactoryDefaults.timing());
        }
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        int n = 5_000_000;
        double[] r = new double[15];
        for (int k = -4; k < r.length; k++) {
            long t0 = mx.getCurrentThreadCpuTime();
            switch (mode) {
                case "timing": enhanced(n); break;
                case "clock": clock(n); break;
                default: plain(n);
            }
            if (k >= 0) r[k] = (mx.getCurrentThreadCpuTime() - t0) / (double) n;
        }
        Arrays.sort(r);
        System.out.printf("median %.2f min %.2f%n", r[r.length / 2], r[0]);
        if (mode.equals("timing")) System.err.println(MethodMonitorFactoryDefaults.timing().report());
    }
    static void plain(int n) { PlainWork w = new PlainWork(); int s = 0; for (int i = 0; i < n; i++) s += w.work(i); sink += s; }
    static void enhanced(int n) { MonitoredWork w = new MonitoredWork(); int s = 0; for (int i = 0; i < n; i++) s += w.work(i); sink += s; }
    static void clock(int n) {
        PlainWork w = new PlainWork(); int s = 0; long t = 0;
        for (int i = 0; i < n; i++) { long a = System.nanoTime(); s += w.work(i); t += System.nanoTime() - a; }
        sink += s + (int) t;
    }
}
