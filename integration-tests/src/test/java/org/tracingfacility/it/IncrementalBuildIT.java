package org.tracingfacility.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Incremental builds with TF's cache, by real Maven and real Gradle: after each edit — a
 * class changed, a class added, a TF setting changed and changed back, the cache deleted —
 * the class directories hold exactly what a clean build of the same sources gives.
 */
class IncrementalBuildIT {
    private static final String IO_STREAM = "src/main/java/com/example/IOStream.java";
    private static final String EXTRA = "src/main/java/com/example/Extra.java";
    private static final String EXTRA_SOURCE = "package com.example;\n\n@IORead\npublic class Extra {\n"
            + "    @IORead\n    public int next(int n) {\n        return n + 1;\n    }\n}\n";
    private static final List<String> MAVEN_OUTPUTS = List.of("target/classes", "target/test-classes");
    private static final List<String> GRADLE_OUTPUTS =
            List.of("build/classes/java/main", "build/classes/java/test", "build/generated/tf/resources");

    @ParameterizedTest
    @MethodSource("org.tracingfacility.it.MavenBuild#executables")
    void mavenIncrementalBuildsEndWhereCleanBuildsDo(String mvn) throws Exception {
        Path project = SampleProjects.copy("sample", "maven-incremental" + MavenBuild.tag(mvn));
        MavenBuild maven = MavenBuild.of(mvn, project);
        Scenario scenario = new Scenario(project, MAVEN_OUTPUTS, (copy, arguments) -> {
            ProcessRunner.Result clean = MavenBuild.of(mvn, copy).run(with("process-test-classes", arguments));
            assertEquals(0, clean.exitCode, clean::describe);
        });

        scenario.step("first build", maven.run("process-test-classes"));

        Map<String, byte[]> before = scenario.outputs(project);
        ProcessRunner.Result nothing = scenario.step("nothing changed", maven.run("process-test-classes"));
        assertTrue(nothing.output.contains("up to date in the cache"), nothing::describe);
        assertSameTrees(before, scenario.outputs(project), "an unchanged build");

        edit(project.resolve(IO_STREAM), "new int[16]", "new int[32]");
        scenario.step("a class changed", maven.run("process-test-classes"));

        Files.writeString(project.resolve(EXTRA), EXTRA_SOURCE);
        scenario.step("a class added", maven.run("process-test-classes"));

        // No source changed, so javac leaves the enhanced classes in place: TF re-enhances
        // them from the originals its cache kept.
        ProcessRunner.Result filtered = maven.run("process-test-classes", "-Dtf.filters=com.example.Main");
        scenario.step("a filter added", filtered, "-Dtf.filters=com.example.Main");
        assertTrue(filtered.output.contains("Nothing to compile"), filtered::describe);

        scenario.step("the filter removed", maven.run("process-test-classes"));

        SampleProjects.deleteRecursively(project.resolve("target/tf-cache"));
        scenario.step("the cache deleted", maven.run("process-test-classes"));
    }

    @Test
    void gradleIncrementalBuildsEndWhereCleanBuildsDo() throws Exception {
        GradleBuild gradle = GradleBuild.of(SampleProjects.copy("sample", "gradle-incremental"));
        Path project = gradle.project();
        Scenario scenario = new Scenario(project, GRADLE_OUTPUTS, (copy, arguments) -> {
            ProcessRunner.Result clean = GradleBuild.of(copy).run(with("testClasses", arguments));
            assertEquals(0, clean.exitCode, clean::describe);
        });

        scenario.step("first build", gradle.run("testClasses"));

        edit(project.resolve(IO_STREAM), "new int[16]", "new int[32]");
        scenario.step("a class changed", gradle.run("testClasses"));

        Files.writeString(project.resolve(EXTRA), EXTRA_SOURCE);
        scenario.step("a class added", gradle.run("testClasses"));

        scenario.step("a filter added", gradle.run("testClasses", "-PtfFilters=com.example.Main"),
                "-PtfFilters=com.example.Main");
        scenario.step("the filter removed", gradle.run("testClasses"));

        Files.delete(project.resolve(EXTRA));
        scenario.step("a class removed", gradle.run("testClasses"));
    }

    @Test
    void gradlesBuildCacheServesTheEnhancedClassesToAMovedProject() throws Exception {
        GradleBuild first = GradleBuild.of(SampleProjects.copy("sample", "gradle-cached-here"));
        GradleBuild moved = GradleBuild.of(SampleProjects.copy("sample", "elsewhere/gradle-cached-there"));

        ProcessRunner.Result stored = first.run("classes", "--build-cache");
        ProcessRunner.Result loaded = moved.run("classes", "--build-cache");

        assertEquals(0, stored.exitCode, stored::describe);
        assertEquals(0, loaded.exitCode, loaded::describe);
        assertTrue(GradleBuild.taskLines(loaded).contains(":compileJava FROM-CACHE"), loaded::describe);
        Scenario trees = new Scenario(first.project(), GRADLE_OUTPUTS.subList(0, 1), null);
        assertSameTrees(trees.outputs(first.project()), trees.outputs(moved.project()), "the moved project");
    }

    /** A clean build of a copy of the project's current sources, with extra arguments. */
    interface CleanBuild {
        void run(Path copy, String... arguments) throws Exception;
    }

    /** An incremental project and, for each step, a clean build of the same sources to compare with. */
    private static final class Scenario {
        private final Path project;
        private final List<String> outputs;
        private final CleanBuild cleanBuild;
        /** Clean builds already made, by sources and arguments: a state seen again needs none. */
        private final Map<String, Map<String, byte[]>> cleanOutputs = new java.util.HashMap<>();
        private int steps;

        Scenario(Path project, List<String> outputs, CleanBuild cleanBuild) {
            this.project = project;
            this.outputs = outputs;
            this.cleanBuild = cleanBuild;
        }

        ProcessRunner.Result step(String name, ProcessRunner.Result incremental, String... arguments) throws Exception {
            assertEquals(0, incremental.exitCode, () -> name + ": " + incremental.describe());
            String key = sourcesDigest() + String.join(" ", arguments);
            Map<String, byte[]> clean = cleanOutputs.get(key);
            if (clean == null) {
                steps++;
                Path copy = SampleProjects.copyTree(project, project.getFileName() + "-clean-" + steps);
                cleanBuild.run(copy, arguments);
                clean = outputs(copy);
                cleanOutputs.put(key, clean);
            }
            assertSameTrees(clean, outputs(project), name);
            return incremental;
        }

        /** The SHA-256 of every source file's path and bytes. */
        private String sourcesDigest() throws Exception {
            java.security.MessageDigest sha = java.security.MessageDigest.getInstance("SHA-256");
            try (Stream<Path> walk = Files.walk(project.resolve("src"))) {
                for (Path file : (Iterable<Path>) walk.filter(Files::isRegularFile).sorted()::iterator) {
                    sha.update(project.relativize(file).toString().getBytes(StandardCharsets.UTF_8));
                    sha.update(Files.readAllBytes(file));
                }
            }
            return new java.math.BigInteger(1, sha.digest()).toString(16);
        }

        /** Every file of the output directories, by path relative to the project. */
        Map<String, byte[]> outputs(Path root) throws IOException {
            Map<String, byte[]> files = new TreeMap<>();
            for (String output : outputs) {
                Path dir = root.resolve(output);
                if (!Files.isDirectory(dir)) {
                    continue;
                }
                try (Stream<Path> walk = Files.walk(dir)) {
                    for (Path file : (Iterable<Path>) walk.filter(Files::isRegularFile)::iterator) {
                        files.put(root.relativize(file).toString(), Files.readAllBytes(file));
                    }
                }
            }
            return files;
        }

    }

    private static void assertSameTrees(Map<String, byte[]> expected, Map<String, byte[]> actual, String step) {
        assertEquals(expected.keySet(), actual.keySet(), step + ": other files than a clean build's");
        assertTrue(expected.keySet().stream().anyMatch(f -> f.endsWith(".class")), step + ": no classes at all");
        for (Map.Entry<String, byte[]> file : expected.entrySet()) {
            assertTrue(Arrays.equals(file.getValue(), actual.get(file.getKey())),
                    step + ": " + file.getKey() + " differs from a clean build's");
        }
    }

    private static void edit(Path file, String from, String to) throws IOException {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        assertTrue(text.contains(from), file + " has no '" + from + "'");
        Files.writeString(file, text.replace(from, to), StandardCharsets.UTF_8);
    }

    private static String[] with(String first, String... rest) {
        List<String> all = new ArrayList<>(List.of(first));
        all.addAll(List.of(rest));
        return all.toArray(new String[0]);
    }
}
