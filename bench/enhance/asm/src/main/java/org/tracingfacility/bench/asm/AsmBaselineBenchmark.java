package org.tracingfacility.bench.asm;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.objectweb.asm.ClassReader;

/**
 * {@code AsmBaselineBenchmark DIR [--warmup N] [--passes N] [--paced]}: the
 * ASM 9 baseline's enhancement throughput on every class file under DIR, in
 * memory, on one thread, after N warm-up passes (so the JIT has compiled ASM).
 * With {@code --paced} each timed pass waits for a line on standard input,
 * after {@code READY} is printed once the warm-up is done, and prints
 * {@code PASS ms=…}, as {@code tf-enhance-bench --paced} does.
 */
public final class AsmBaselineBenchmark {
    private static final int FAILURES_SHOWN = 5;

    private AsmBaselineBenchmark() {
    }

    /** The tally of one pass; the same every pass. */
    private static final class Tally {
        int enhanced;
        int untouched;
        int failed;
        long outputBytes;
        final List<String> firstFailures = new ArrayList<>();

        String counts() {
            return enhanced + "/" + untouched + "/" + failed + "/" + outputBytes;
        }
    }

    public static void main(String[] args) throws IOException {
        Path dir = null;
        int warmup = 5;
        int passes = 7;
        boolean paced = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--warmup": warmup = Integer.parseInt(args[++i]); break;
                case "--passes": passes = Integer.parseInt(args[++i]); break;
                case "--paced": paced = true; break;
                default: dir = Paths.get(args[i]);
            }
        }
        if (dir == null || passes < 1) {
            System.err.println("usage: AsmBaselineBenchmark DIR [--warmup N] [--passes N] [--paced]");
            System.exit(2);
        }
        List<byte[]> classes = load(dir);
        long totalBytes = classes.stream().mapToLong(c -> c.length).sum();
        double megabytes = totalBytes / 1e6;
        System.out.printf("ASM: %d classes, %.1f MB, %s, %d warm-up + %d timed passes%n", classes.size(), megabytes,
                Runtime.version(), warmup, passes);

        Tally first = null;
        for (int i = 0; i < warmup; i++) {
            first = enhanceAll(classes);
        }
        BufferedReader driver = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        if (paced) {
            System.out.println("READY");
            System.out.flush();
        }
        long[] nanos = new long[passes];
        for (int i = 0; i < passes; i++) {
            if (paced && driver.readLine() == null) {
                throw new IllegalStateException("--paced: standard input ended before the last pass");
            }
            long start = System.nanoTime();
            Tally tally = enhanceAll(classes);
            nanos[i] = System.nanoTime() - start;
            if (paced) {
                System.out.printf("PASS ms=%.1f%n", nanos[i] / 1e6);
                System.out.flush();
            }
            if (first == null) {
                first = tally;
            } else if (!first.counts().equals(tally.counts())) {
                throw new IllegalStateException("passes differ: " + tally.counts() + " vs " + first.counts());
            }
        }
        Arrays.sort(nanos);
        double median = nanos[passes / 2] / 1e9;
        double classesPerSecond = classes.size() / median;
        double mbPerSecond = megabytes / median;
        System.out.printf("ASM 1 thread: median %.1f ms (%.1f..%.1f): %.0f classes/s, %.1f MB/s; "
                        + "%d enhanced, %d untouched, %d failed, %.1f MB out%n",
                median * 1e3, nanos[0] / 1e6, nanos[passes - 1] / 1e6, classesPerSecond, mbPerSecond,
                first.enhanced, first.untouched, first.failed, first.outputBytes / 1e6);
        first.firstFailures.forEach(f -> System.out.println("  failed: " + f));
        System.out.printf("RESULT asm threads=1 classes=%d enhanced=%d skipped=%d failed=%d median_ms=%.1f "
                        + "classes_per_s=%.0f mb_per_s=%.1f%n",
                classes.size(), first.enhanced, first.untouched, first.failed, median * 1e3, classesPerSecond,
                mbPerSecond);
    }

    private static Tally enhanceAll(List<byte[]> classes) {
        Tally tally = new Tally();
        for (byte[] bytes : classes) {
            try {
                ClassReader reader = new ClassReader(bytes);
                ObjectOnlyClassWriter writer = new ObjectOnlyClassWriter(reader);
                TfClassEnhancer enhancer = new TfClassEnhancer(writer);
                // COMPUTE_FRAMES recomputes every frame, so reading the old ones would be wasted work.
                reader.accept(enhancer, ClassReader.SKIP_FRAMES);
                if (enhancer.monitoredAny()) {
                    tally.enhanced++;
                    tally.outputBytes += writer.toByteArray().length;
                } else {
                    tally.untouched++;
                }
            } catch (RuntimeException e) {
                tally.failed++;
                if (tally.firstFailures.size() < FAILURES_SHOWN) {
                    tally.firstFailures.add(new ClassReader(bytes).getClassName() + ": " + e);
                }
            }
        }
        return tally;
    }

    /** Every class file under dir, in path order, read once. */
    private static List<byte[]> load(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(p -> p.toString().endsWith(".class")).sorted().map(p -> {
                try {
                    return Files.readAllBytes(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).collect(Collectors.toList());
        }
    }
}
