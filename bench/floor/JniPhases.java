import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.tracingfacility.core.EnhanceReport;
import org.tracingfacility.core.EnhanceRequest;
import org.tracingfacility.core.TfCore;

/**
 * What a build pays TF, measured as the plugins call it: one {@link TfCore#enhance} call over
 * JNI in a running JVM (no process start), with the incremental cache on and the plugins'
 * default of one worker per core. Per round: a clean enhancement (javac's output, an empty
 * cache), then a run where nothing changed, then one where javac rewrote one class file
 * (alternately two variants). Only the calls are timed; copying javac's output in is not.
 * Run by run.sh (single-file source program):
 * {@code java -cp tf-core-jni.jar:msgpack-core.jar JniPhases.java JAVAC_OUT WORK RUNTIME_JAR
 * CHANGED_FILE VARIANT1 VARIANT2 ROUNDS}.
 * Prints one line per kind: {@code JNI <kind> median_ms=… min_ms=… runs=…}.
 */
public final class JniPhases {
    public static void main(String[] args) throws Exception {
        Path javacOut = Path.of(args[0]);
        Path work = Path.of(args[1]);
        Path classes = work.resolve("classes");
        Path cache = work.resolve("cache");
        Path changed = classes.resolve(args[3]);
        Path[] variants = {Path.of(args[4]), Path.of(args[5])};
        int rounds = Integer.parseInt(args[6]);
        EnhanceRequest request = EnhanceRequest.builder(classes.toString())
                .cacheDir(cache.toString())
                .classpath(List.of(args[2]))
                .resourceFile(work.resolve("tfannotations.properties").toString())
                .build();

        TfCore.version(); // loads the native library, once per JVM: not a build's per-run cost
        List<Double> clean = new ArrayList<>();
        List<Double> nothing = new ArrayList<>();
        List<Double> one = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            delete(classes);
            delete(cache);
            copy(javacOut, classes);
            clean.add(timed(request));
            nothing.add(timed(request));
            Files.copy(variants[round % 2], changed, StandardCopyOption.REPLACE_EXISTING);
            one.add(timed(request));
        }
        report("clean", clean);
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

    private static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> paths = Files.walk(from)) {
            paths.forEach(path -> {
                try {
                    Path target = to.resolve(from.relativize(path).toString());
                    if (Files.isDirectory(path)) {
                        Files.createDirectories(target);
                    } else {
                        Files.copy(path, target);
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }

    private static void delete(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
                Files.delete(path);
            }
        }
    }

    private static void report(String kind, List<Double> times) {
        List<Double> sorted = new ArrayList<>(times);
        Collections.sort(sorted);
        System.out.printf("JNI %s median_ms=%.1f min_ms=%.1f runs=%d%n", kind, sorted.get(sorted.size() / 2), sorted.get(0),
                sorted.size());
    }
}
