package org.tracingfacility.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.tracingfacility.annotation.Filtered;
import org.tracingfacility.it.generated.AsmCheck;
import org.tracingfacility.it.generated.ClassGenerator;
import org.tracingfacility.runtime.MethodMonitorRegistry;

/**
 * Random but verifiable classes built with ASM ({@link ClassGenerator}: values left on the
 * stack at branches, returns and throws, nested handlers, constructors whose chaining
 * arguments branch, long/double and wide locals, class versions 48 to 61), checked to verify
 * before TF (ASM's analyzer and HotSpot), enhanced by {@code tf-enhance -filter '**'}, checked
 * again, then run side by side: every method must return (or throw) what the original does,
 * and a recording monitor must see one exit for every enter. Every shape generated here is
 * legal bytecode that TF must enhance, so a method left unmonitored (skipped) fails too.
 *
 * <p>Seeded and reproducible: class {@code i} comes from seed {@code tf.generator.seed + i}; a
 * failure names its seed and the command that runs that class alone.
 */
class GeneratedMethodsIT {
    private static final long DEFAULT_SEED = 20261125L;
    private static final int DEFAULT_CLASSES = 200;
    private static final int METHODS_PER_CLASS = 15;
    private static final int PRINTED_FAILURES = 40;
    private static final Duration ENHANCE_TIMEOUT = Duration.ofMinutes(5);
    /** The arguments every method runs with: zeros, small values, extremes, NaN. */
    private static final Object[][] ARGUMENTS = {
        {0, 0L, 0.0}, {1, 5L, 2.5}, {-7, Long.MIN_VALUE, -0.0}, {123456, 42L, Double.NaN}, {Integer.MIN_VALUE, -1L, 1e300}};

    @AfterEach
    void detachMonitor() {
        MethodMonitorRegistry.clear(Filtered.class);
    }

    @Test
    void enhancedGeneratedMethodsVerifyAndBehaveAsTheOriginals() throws Exception {
        long firstSeed = Long.getLong("tf.generator.seed", DEFAULT_SEED);
        int classes = Integer.getInteger("tf.generator.classes", DEFAULT_CLASSES);
        Path work = ItEnvironment.workDir().resolve("generated");
        SampleProjects.deleteRecursively(work);
        Path original = work.resolve("original");
        Path enhanced = work.resolve("enhanced");

        List<ClassGenerator.Generated> generated = new ArrayList<>();
        for (int i = 0; i < classes; i++) {
            ClassGenerator.Generated g = ClassGenerator.generate(firstSeed + i, METHODS_PER_CLASS);
            generated.add(g);
            write(original, g.name, g.bytes);
            write(enhanced, g.name, g.bytes);
        }
        Failures failures = new Failures();
        BytesLoader originals = new BytesLoader(original);
        for (ClassGenerator.Generated g : generated) {
            String problem = verify(g.name, g.bytes, originals);
            if (problem != null) {
                failures.add(g, "generator bug: the ORIGINAL does not verify: " + problem);
            }
        }
        assertEquals("", failures.report(), "the generator must write verifiable classes");

        ProcessRunner.Result run = ProcessRunner.run(
                List.of(ItEnvironment.enhanceCli().toString(), "-dir", enhanced.toString(), "-filter", "**"),
                work, work.resolve("enhance.log"), ENHANCE_TIMEOUT);
        if (run.exitCode != 0) {
            for (ClassGenerator.Generated g : generated) {
                for (String line : run.output.split("\n")) {
                    if (line.contains(g.name)) {
                        failures.add(g, "tf-enhance refused: " + line);
                    }
                }
            }
            assertEquals("", failures.report(), "tf-enhance refused the run (exit " + run.exitCode + "):\n"
                    + firstLines(run.output, 20));
        }
        // No generated method may be skipped: each one verifies, so TF must enhance it.
        for (ClassGenerator.Generated g : generated) {
            for (String line : run.output.split("\n")) {
                if (line.contains(g.name + ".") && line.contains(": not enhanced, left as it was: ")) {
                    failures.add(g, "tf-enhance skipped a method: " + line);
                }
            }
        }

        MethodMonitorRegistry.register(Filtered.class, RecordingMonitor::new);
        BytesLoader enhancedLoader = new BytesLoader(enhanced);
        long methods = 0;
        for (ClassGenerator.Generated g : generated) {
            byte[] bytes = Files.readAllBytes(classFile(enhanced, g.name));
            String problem = verify(g.name, bytes, enhancedLoader);
            if (problem != null) {
                failures.add(g, "the ENHANCED class does not verify: " + problem);
                continue;
            }
            methods += compareBehaviour(g, originals.loadClass(g.name), enhancedLoader.loadClass(g.name), failures);
        }
        System.out.println("GeneratedMethodsIT: " + classes + " classes from seed " + firstSeed + ", " + methods
                + " methods and constructors run original and enhanced; " + run.output.trim());
        assertEquals("", failures.report(), "generated methods that TF broke");
    }

    /** {@code null} when ASM's analyzer and HotSpot both accept the class, else what they said. */
    private static String verify(String name, byte[] bytes, ClassLoader loader) {
        List<String> asm = AsmCheck.problems(bytes, loader);
        if (!asm.isEmpty()) {
            return "ASM's analyzer: " + String.join("; ", asm);
        }
        try {
            Class.forName(name, false, loader).getDeclaredMethods();
            return null;
        } catch (LinkageError e) {
            String message = e.getClass().getName() + ": " + e.getMessage();
            return "HotSpot: " + LinkResults.method(message) + ": " + LinkResults.headline(message);
        } catch (ClassNotFoundException e) {
            return "not found: " + e;
        }
    }

    /** Runs every static method and both constructors, original and enhanced; returns how many. */
    private static int compareBehaviour(ClassGenerator.Generated g, Class<?> original, Class<?> enhanced, Failures failures)
            throws Exception {
        int count = 0;
        for (String[] m : g.staticMethods) {
            Method before = find(original, m[0]);
            Method after = find(enhanced, m[0]);
            for (Object[] args : ARGUMENTS) {
                String expected = outcome(original, () -> before.invoke(null, args));
                RecordingMonitor.drain();
                String actual = outcome(enhanced, () -> after.invoke(null, args));
                List<String> events = RecordingMonitor.drain();
                String where = m[0] + m[1] + " with " + java.util.Arrays.toString(args);
                if (!expected.equals(actual)) {
                    failures.add(g, where + ": original " + expected + ", enhanced " + actual);
                } else if (events.size() != 2 || !events.get(0).startsWith("enter ")
                        || !events.get(1).equals("exit " + events.get(0).substring("enter ".length()))) {
                    failures.add(g, where + ": the monitor saw " + events + ", not one enter and its exit");
                }
            }
            count++;
        }
        Constructor<?> chainingBefore = original.getConstructor(int.class, long.class, double.class, int.class);
        Constructor<?> chainingAfter = enhanced.getConstructor(int.class, long.class, double.class, int.class);
        Method probeBefore = original.getMethod("probe");
        Method probeAfter = enhanced.getMethod("probe");
        for (Object[] args : ARGUMENTS) {
            Object[] four = {args[0], args[1], args[2], 0};
            String expected = outcome(original, () -> probeBefore.invoke(chainingBefore.newInstance(four)));
            RecordingMonitor.drain();
            String actual = outcome(enhanced, () -> probeAfter.invoke(chainingAfter.newInstance(four)));
            List<String> events = RecordingMonitor.drain();
            String where = "new " + ClassGenerator.CHAINING_CONSTRUCTOR + " then probe() with " + java.util.Arrays.toString(four);
            if (!expected.equals(actual)) {
                failures.add(g, where + ": original " + expected + ", enhanced " + actual);
            } else if (!nested(events) || events.isEmpty()) {
                failures.add(g, where + ": the monitor saw " + events + ", not nested enter/exit pairs");
            } else if (expected.startsWith("returned") && events.size() != 6) {
                // Both constructors and probe() ran to the end: each must have been monitored
                // (a method TF skipped would be missing here).
                failures.add(g, where + ": the monitor saw " + events + ", not both constructors and probe()");
            }
        }
        return count + 2;
    }

    /** Every exit closes the innermost open enter of the same method, and all are closed. */
    private static boolean nested(List<String> events) {
        List<String> open = new ArrayList<>();
        for (String e : events) {
            if (e.startsWith("enter ")) {
                open.add(e.substring("enter ".length()));
            } else if (open.isEmpty() || !open.remove(open.size() - 1).equals(e.substring("exit ".length()))) {
                return false;
            }
        }
        return open.isEmpty();
    }

    /** What a call did, as a user sees it: the value or exception, and the class's {@code sink} afterwards. */
    private static String outcome(Class<?> cls, Callable<Object> call) throws Exception {
        Field sink = cls.getField(ClassGenerator.SINK);
        sink.setLong(null, 0);
        String result;
        try {
            result = "returned " + call.call();
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            result = "threw " + cause.getClass().getName() + ": " + cause.getMessage();
        }
        return result + "; sink " + sink.getLong(null);
    }

    private static Method find(Class<?> cls, String name) {
        for (Method m : cls.getDeclaredMethods()) {
            if (m.getName().equals(name)) {
                return m;
            }
        }
        throw new IllegalStateException(cls + " lost its method " + name);
    }

    /** Failures by seed, each printed with the command that regenerates its class alone. */
    private static final class Failures {
        private final Map<Long, List<String>> bySeed = new LinkedHashMap<>();

        void add(ClassGenerator.Generated g, String what) {
            bySeed.computeIfAbsent(g.seed, s -> new ArrayList<>()).add(g.name + " (class version " + g.version + "): " + what);
        }

        String report() {
            if (bySeed.isEmpty()) {
                return "";
            }
            StringBuilder r = new StringBuilder(bySeed.size() + " failing seeds; run one alone with\n  "
                    + "mvn -B -pl integration-tests verify -Dit.test=GeneratedMethodsIT -Dtf.generator.classes=1 -Dtf.generator.seed=SEED\n");
            int printed = 0;
            for (Map.Entry<Long, List<String>> e : bySeed.entrySet()) {
                for (String line : e.getValue()) {
                    if (printed++ < PRINTED_FAILURES) {
                        r.append("seed ").append(e.getKey()).append(": ").append(line).append('\n');
                    }
                }
            }
            if (printed > PRINTED_FAILURES) {
                r.append("… and ").append(printed - PRINTED_FAILURES).append(" more\n");
            }
            return r.toString();
        }
    }

    /** Defines the classes of one directory; everything else (tf-runtime) from the test's loader. */
    private static final class BytesLoader extends ClassLoader {
        private final Path dir;

        BytesLoader(Path dir) {
            super(GeneratedMethodsIT.class.getClassLoader());
            this.dir = dir;
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            Path file = classFile(dir, name);
            if (!Files.isRegularFile(file)) {
                throw new ClassNotFoundException(name);
            }
            try {
                byte[] bytes = Files.readAllBytes(file);
                return defineClass(name, bytes, 0, bytes.length);
            } catch (IOException e) {
                throw new ClassNotFoundException(name, e);
            }
        }
    }

    private static Path classFile(Path dir, String name) {
        return dir.resolve(name.replace('.', '/') + ".class");
    }

    private static void write(Path dir, String name, byte[] bytes) throws IOException {
        Path file = classFile(dir, name);
        Files.createDirectories(file.getParent());
        Files.write(file, bytes);
    }

    private static String firstLines(String text, int n) {
        return Stream.of(text.split("\n")).limit(n).collect(Collectors.joining("\n"));
    }

}
