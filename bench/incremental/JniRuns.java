import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.tracingfacility.core.EnhanceReport;
import org.tracingfacility.core.EnhanceRequest;
import org.tracingfacility.core.TfCore;

/**
 * The time TF spends in a build, measured as the plugins call it: one {@link TfCore#enhance}
 * call over JNI in a running JVM, no process start. Run by run.sh (single-file source program):
 * {@code java -cp tf-core-jni.jar:msgpack-core.jar JniRuns.java CLASSES CACHE RUNTIME_JAR
 * CHANGED_FILE VARIANT1 VARIANT2 ROUNDS}; CLASSES must already be enhanced with CACHE.
 * Prints one line per kind: {@code JNI <kind> median_ms=… min_ms=… runs=…}.
 */
public final class JniRuns {
    public static void main(String[] args) throws Exception {
        Path classes = Path.of(args[0]);
        Path changed = classes.resolve(args[3]);
        Path[] variants = {Path.of(args[4]), Path.of(args[5])};
        int rounds = Integer.parseInt(args[6]);
        EnhanceRequest request = EnhanceRequest.builder(classes.toString())
                .cacheDir(args[1])
                .classpath(List.of(args[2]))
                .resourceFile(classes.resolveSibling("tfannotations.properties").toString())
                .build();

        // Once per JVM: loading (and, the first time ever, extracting) the native library.
        long loadStart = System.nanoTime();
        TfCore.version();
        double load = (System.nanoTime() - loadStart) / 1e6;
        double first = timed(request);
        List<Double> nothing = new ArrayList<>();
        List<Double> one = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            nothing.add(timed(request));
            Files.copy(variants[round % 2], changed, StandardCopyOption.REPLACE_EXISTING);
            one.add(timed(request));
        }
        System.out.printf("JNI library-load ms=%.1f, then first call ms=%.1f (nothing changed, cold JVM)%n", load, first);
        report("nothing", nothing);
        report("one", one);
    }

    private static double timed(EnhanceRequest request) {
        long start = System.nanoTime();
        EnhanceReport report = TfCore.enhance(request);
        double ms = (System.nanoTime() - start) / 1e6;
        if (!report.ok()) {
            throw new IllegalStateException(report.summary());
        }
        return ms;
    }

    private static void report(String kind, List<Double> times) {
        List<Double> sorted = new ArrayList<>(times);
        Collections.sort(sorted);
        System.out.printf("JNI %s median_ms=%.1f min_ms=%.1f runs=%d%n", kind, sorted.get(sorted.size() / 2), sorted.get(0),
                sorted.size());
    }
}
