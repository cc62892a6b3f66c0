package org.tracingfacility.it.link;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A program run in a child JVM (of the Java version a jar needs): links every class under a
 * directory with HotSpot and writes one line per class, {@code name TAB OK} or
 * {@code name TAB throwable-class TAB message}, into a result file.
 *
 * <p>Each class is defined by a {@link ChildFirstLoader} over (the directory, the jar's
 * dependencies, tf-runtime) and linked by {@link Class#getDeclaredMethods()}, which verifies
 * it (and its supertypes) without running its static initializer. Before anything else the
 * program feeds itself two deliberately broken classes (one checked by the type-checking
 * verifier, one by the old type-inferring one) and refuses to go on unless both are
 * rejected: a JVM that does not verify would make every result meaningless.
 *
 * <pre>java ClassLinker RESULT-FILE CLASS-DIR [JAR-OR-DIR ...]</pre>
 */
public final class ClassLinker {
    /** Exit code when the JVM accepted a broken class: verification is not happening. */
    static final int VERIFIER_OFF = 3;

    private ClassLinker() {}

    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            System.err.println("usage: ClassLinker RESULT-FILE CLASS-DIR [JAR-OR-DIR ...]");
            System.exit(2);
        }
        String canaryFailure = BrokenClasses.checkTheVerifierRejectsThem();
        if (canaryFailure != null) {
            System.err.println("ClassLinker: " + canaryFailure);
            System.exit(VERIFIER_OFF);
        }
        Path results = Paths.get(args[0]);
        Path classes = Paths.get(args[1]);
        List<URL> path = new ArrayList<>();
        path.add(url(classes));
        for (int i = 2; i < args.length; i++) {
            path.add(url(Paths.get(args[i])));
        }
        try (ChildFirstLoader loader = new ChildFirstLoader(path.toArray(new URL[0]));
                PrintWriter out = new PrintWriter(Files.newBufferedWriter(results, StandardCharsets.UTF_8))) {
            for (String name : classNames(classes)) {
                out.println(name + "\t" + link(name, loader));
            }
        }
    }

    /** {@code OK}, or the throwable's class and message (tabs and line breaks escaped). */
    private static String link(String name, ClassLoader loader) {
        try {
            Class.forName(name, false, loader).getDeclaredMethods();
            return "OK";
        } catch (Throwable t) { // LinkageError mostly; anything else is reported the same way
            String message = String.valueOf(t.getMessage());
            return t.getClass().getName() + "\t" + message.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n");
        }
    }

    /** Binary names of every class file under {@code dir}, sorted; module and package descriptors left out. */
    static List<String> classNames(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile)
                    .map(p -> dir.relativize(p).toString())
                    .filter(p -> p.endsWith(".class") && !p.endsWith("module-info.class") && !p.endsWith("package-info.class"))
                    .map(p -> p.substring(0, p.length() - ".class".length()).replace('/', '.'))
                    .sorted()
                    .collect(Collectors.toList());
        }
    }

    private static URL url(Path p) {
        try {
            return p.toUri().toURL();
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException(p.toString(), e);
        }
    }
}
