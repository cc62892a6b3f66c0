package org.tracingfacility.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.Test;
import org.tracingfacility.it.link.ClassLinker;

/**
 * Real jars nobody here wrote ({@code corpus/jars.tsv}: kotlinc, scalac 2 and 3, groovyc, javac
 * 1.4 to 25, ecj, ajc, ProGuard, Byte Buddy), every method monitored ({@code tf-enhance -filter
 * '**'}), every class then linked by HotSpot, original and enhanced side by side. No run may
 * be refused and no class that links before enhancement may fail after it. A class that does
 * not link even in the original (an optional dependency missing) is counted apart.
 *
 * <p>One jar alone: {@code -Dtf.corpus.jars=guava} (names from the table, comma-separated).
 */
class CorpusIT {
    private static final Duration ENHANCE_TIMEOUT = Duration.ofMinutes(5);
    private static final Duration LINK_TIMEOUT = Duration.ofMinutes(5);

    /** One jar's outcome: a row of the printed table. */
    private static final class Outcome {
        final CorpusJar jar;
        int classes;
        /** The class file major versions found in the jar, as the table shows them (e.g. {@code 49,52}). */
        String versions = "";
        int unlinkableOriginal;
        EnhanceSummary summary;
        int exitCode;
        String refusal = "";
        final List<String> failures = new ArrayList<>();

        Outcome(CorpusJar jar) {
            this.jar = jar;
        }
    }

    @Test
    void everyClassThatLinkedBeforeEnhancementLinksAfterIt() throws Exception {
        List<CorpusJar> jars = selected(CorpusJar.read(ItEnvironment.corpusTable()));
        Path work = ItEnvironment.workDir().resolve("corpus");
        Map<String, CorpusResolver.Resolved> resolved = CorpusResolver.resolve(jars, work);

        List<Outcome> outcomes = new ArrayList<>();
        for (CorpusJar jar : jars) {
            outcomes.add(run(jar, resolved.get(jar.name), work.resolve("jars").resolve(jar.name)));
        }
        String table = table(outcomes);
        System.out.println(table);
        Files.writeString(work.resolve("corpus-table.txt"), table, StandardCharsets.UTF_8);

        List<String> problems = new ArrayList<>();
        for (Outcome o : outcomes) {
            if (o.exitCode != 0) {
                problems.add(o.jar.name + ": tf-enhance refused the run (exit " + o.exitCode + "): " + o.refusal);
            }
            problems.addAll(o.failures);
        }
        assertEquals("", String.join("\n", problems),
                "refused runs, and classes that linked before enhancement but not after (jar, class, method, error)");
    }

    private static Outcome run(CorpusJar jar, CorpusResolver.Resolved resolved, Path dir) throws Exception {
        Outcome outcome = new Outcome(jar);
        Path original = dir.resolve("original");
        Path enhanced = dir.resolve("enhanced");
        SampleProjects.deleteRecursively(dir);
        Files.createDirectories(dir);
        if (jar.isJdkModule()) {
            extractJdkModule(jar.jdkModule(), original);
        } else {
            unpackClasses(resolved.jar, original);
        }
        outcome.versions = majorVersions(original);
        copyTree(original, enhanced);

        ProcessRunner.Result enhance = ProcessRunner.run(
                List.of(ItEnvironment.enhanceCli().toString(), "-dir", enhanced.toString(), "-filter", "**"),
                dir, dir.resolve("enhance.log"), ENHANCE_TIMEOUT);
        outcome.exitCode = enhance.exitCode;
        outcome.summary = EnhanceSummary.of(enhance.output);
        if (enhance.exitCode != 0) {
            outcome.refusal = refusal(enhance.output, dir);
        }

        List<Path> linkPath = CorpusResolver.linkPath(resolved);
        LinkResults before = link(jar, original, linkPath, dir.resolve("link-original.tsv"));
        LinkResults after = link(jar, enhanced, linkPath, dir.resolve("link-enhanced.tsv"));
        outcome.classes = before.byClass.size();
        for (Map.Entry<String, String> e : before.byClass.entrySet()) {
            String className = e.getKey();
            if (e.getValue() != null) {
                outcome.unlinkableOriginal++;
            } else if (!after.linked(className)) {
                String error = after.byClass.getOrDefault(className, "not linked: the enhanced directory lacks the class");
                outcome.failures.add(jar.name + "\t" + className + "\t" + LinkResults.method(error) + "\t"
                        + LinkResults.headline(error));
            }
        }
        if (outcome.exitCode == 0 && outcome.failures.isEmpty()) {
            // Nothing to look into: the classes go (the logs and link results stay).
            SampleProjects.deleteRecursively(original);
            SampleProjects.deleteRecursively(enhanced);
        }
        return outcome;
    }

    private static LinkResults link(CorpusJar jar, Path classes, List<Path> linkPath, Path results) throws Exception {
        List<String> command = new ArrayList<>(List.of(ItEnvironment.javaExecutable(jar.linkJava),
                "-cp", System.getProperty("java.class.path"), ClassLinker.class.getName(),
                results.toString(), classes.toString()));
        linkPath.forEach(p -> command.add(p.toString()));
        ProcessRunner.Result linking = ProcessRunner.run(command, classes.getParent(),
                results.resolveSibling(results.getFileName() + ".log"), LINK_TIMEOUT);
        if (linking.exitCode != 0) {
            throw new IllegalStateException(jar.name + ": linking " + classes + " did not complete: " + linking.describe());
        }
        return LinkResults.read(results);
    }

    private static String table(List<Outcome> outcomes) {
        StringBuilder t = new StringBuilder(String.format("%-20s %-28s %-8s %8s %8s %8s %10s %9s %s%n",
                "jar", "compiler", "versions", "classes", "enhanced", "skipped", "unlinkable", "failures", "tf-enhance"));
        long classes = 0;
        long failures = 0;
        for (Outcome o : outcomes) {
            t.append(String.format("%-20s %-28s %-8s %8d %8s %8s %10d %9d %s%n", o.jar.name, abbreviate(o.jar.compiler, 28),
                    o.versions, o.classes,
                    count(o.summary.enhanced), count(o.summary.skippedMethods), o.unlinkableOriginal,
                    o.failures.size(), o.exitCode == 0 ? "ok" : "REFUSED (exit " + o.exitCode + ")"));
            classes += o.classes;
            failures += o.failures.size();
        }
        t.append(String.format("%-20s %-28s %-8s %8d %38s %9d%n", "all", "", "", classes, "", failures));
        t.append("(unlinkable: classes that do not link even before enhancement; failures: classes that do after it)\n");
        for (Outcome o : outcomes) {
            if (o.exitCode != 0) {
                t.append(o.jar.name).append(" refused: ").append(o.refusal).append('\n');
            }
            o.failures.forEach(f -> t.append(f).append('\n'));
        }
        return t.toString();
    }

    private static String abbreviate(String text, int width) {
        return text.length() <= width ? text : text.substring(0, width - 1) + "…";
    }

    private static String count(long n) {
        return n < 0 ? "-" : Long.toString(n);
    }

    /** The rows named by {@code -Dtf.corpus.jars}, or all of them. */
    private static List<CorpusJar> selected(List<CorpusJar> all) {
        String names = System.getProperty("tf.corpus.jars", "").trim();
        if (names.isEmpty()) {
            return all;
        }
        Set<String> wanted = new TreeSet<>(Arrays.asList(names.split("\\s*,\\s*")));
        List<CorpusJar> chosen = all.stream().filter(j -> wanted.remove(j.name)).collect(Collectors.toList());
        assertTrue(wanted.isEmpty(), "no corpus jar named " + wanted + " in " + ItEnvironment.corpusTable());
        return chosen;
    }

    /** The jar's class files, except multi-release versions and module descriptors. */
    private static void unpackClasses(Path jar, Path into) throws IOException {
        try (ZipInputStream zip = new ZipInputStream(Files.newInputStream(jar))) {
            for (ZipEntry entry; (entry = zip.getNextEntry()) != null; ) {
                String name = entry.getName();
                if (entry.isDirectory() || !name.endsWith(".class") || name.startsWith("META-INF/")
                        || name.endsWith("module-info.class")) {
                    continue;
                }
                Path target = into.resolve(name).normalize();
                if (!target.startsWith(into)) {
                    throw new IOException(jar + ": entry " + name + " points outside the directory");
                }
                Files.createDirectories(target.getParent());
                Files.copy(zip, target);
            }
        }
    }

    /** One module of the JDK 25 image, with {@code jimage extract}, its class files under {@code into}. */
    private static void extractJdkModule(String module, Path into) throws Exception {
        Path jdk = ItEnvironment.jdk25Home();
        Path image = into.resolveSibling("jimage");
        ProcessRunner.Result extract = ProcessRunner.run(List.of(jdk.resolve("bin/jimage").toString(), "extract",
                "--dir", image.toString(), "--include", "regex:/" + module.replace(".", "\\.") + "/.*",
                jdk.resolve("lib/modules").toString()), into.getParent(), into.resolveSibling("jimage.log"), ENHANCE_TIMEOUT);
        Path classes = image.resolve(module);
        if (extract.exitCode != 0 || !Files.isDirectory(classes)) {
            throw new IllegalStateException("cannot extract module " + module + ": " + extract.describe());
        }
        Files.move(classes, into);
        Files.deleteIfExists(into.resolve("module-info.class"));
    }

    /** The distinct class file major versions under {@code dir}, ascending, comma-separated. */
    private static String majorVersions(Path dir) throws IOException {
        Set<Integer> majors = new TreeSet<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".class"))::iterator) {
                try (InputStream in = Files.newInputStream(p)) {
                    byte[] head = in.readNBytes(8);
                    majors.add(((head[6] & 0xff) << 8) | (head[7] & 0xff));
                }
            }
        }
        return majors.stream().map(String::valueOf).collect(Collectors.joining(","));
    }

    /** How many errors the CLI printed, and the first few, without the directory every path starts with. */
    private static String refusal(String output, Path dir) {
        List<String> errors = Arrays.stream(output.split("\n")).filter(l -> l.startsWith("error: "))
                .map(l -> l.substring("error: ".length()).replace(dir.resolve("enhanced") + "/", ""))
                .collect(Collectors.toList());
        return errors.size() + " errors, e.g.\n    " + String.join("\n    ", errors.subList(0, Math.min(3, errors.size())));
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }

}
