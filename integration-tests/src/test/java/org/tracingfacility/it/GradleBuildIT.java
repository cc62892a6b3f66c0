package org.tracingfacility.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Real Gradle builds of the projects under {@code projects/} with the TF Gradle plugin this
 * reactor installed, run by Debian's Gradle 4.4.1: the one Gradle these machines can install.
 */
class GradleBuildIT {
    /** The TF annotations of the sample's main classes: the ones the Maven build lists. */
    private static final List<String> SAMPLE_ANNOTATIONS =
            List.of("com.example.IO", "com.example.IORead", "com.example.IOWrite", "com.example.Lifecycle");
    private static final String SAMPLE_JAR = "build/libs/sample.jar";
    /** Where the plugin writes a source set's annotation list (its own directory, not javac's). */
    private static final String TEST_ANNOTATION_LIST = "build/generated/tf/resources/test/" + TfAnnotationList.RESOURCE;

    @BeforeAll
    static void gradleIsInstalled() {
        assertTrue(Files.isExecutable(Path.of(GradleBuild.executable())),
                "no Gradle at " + GradleBuild.executable() + " (scripts/setup.sh installs Debian's)");
    }

    @Test
    void theJarListsTheSampleTfAnnotationsTheProgramRunsAndOnlyAChangeBuildsAgain() throws Exception {
        GradleBuild build = GradleBuild.of(SampleProjects.copy("sample", "gradle-sample"));

        ProcessRunner.Result first = build.run("jar", "testClasses");

        assertEquals(0, first.exitCode, first::describe);
        Set<String> tasks = GradleBuild.taskLines(first);
        assertTrue(tasks.contains(":compileJava") && tasks.contains(":compileTestJava"), first::describe);
        Path jar = build.project().resolve(SAMPLE_JAR);
        byte[] list = JarContents.entry(jar, TfAnnotationList.RESOURCE)
                .orElseThrow(() -> new AssertionError(TfAnnotationList.RESOURCE + " is missing from " + jar));
        assertEquals(SAMPLE_ANNOTATIONS, TfAnnotationList.parse(list));
        assertEquals(List.of("com.example.Probe"),
                TfAnnotationList.parse(Files.readAllBytes(build.project().resolve(TEST_ANNOTATION_LIST))),
                "compileTestJava lists the test classes' own annotations");
        assertTrue(JarContents.entry(jar, "com/example/IOStream.class").isPresent(), "the jar holds the classes");
        assertRuns(build.project(), jar);

        ProcessRunner.Result second = build.run("jar", "testClasses");

        assertEquals(0, second.exitCode, second::describe);
        assertTrue(GradleBuild.taskLines(second).containsAll(Set.of(
                ":compileJava UP-TO-DATE", ":compileTestJava UP-TO-DATE", ":jar UP-TO-DATE")), second::describe);
        assertArrayEquals(list, JarContents.entry(jar, TfAnnotationList.RESOURCE).orElseThrow());

        // verbose changes only the log: not an input, nothing compiles again. (The sample's
        // build.gradle sets tf.verbose from -PtfVerbose.)
        ProcessRunner.Result quietlyVerbose = build.run("jar", "-PtfVerbose=1");

        assertEquals(0, quietlyVerbose.exitCode, quietlyVerbose::describe);
        assertTrue(GradleBuild.taskLines(quietlyVerbose).contains(":compileJava UP-TO-DATE"), quietlyVerbose::describe);

        // When the task does run, the setting is read: verbose 3 lists the TF annotations found.
        ProcessRunner.Result verbose = build.run("jar", "-PtfVerbose=3", "--rerun-tasks");

        assertEquals(0, verbose.exitCode, verbose::describe);
        assertTrue(GradleBuild.taskLines(verbose).contains(":compileJava"), verbose::describe);
        for (String annotation : SAMPLE_ANNOTATIONS) {
            assertTrue(verbose.output.contains("TF annotation: " + annotation), verbose::describe);
        }
        assertArrayEquals(list, JarContents.entry(jar, TfAnnotationList.RESOURCE).orElseThrow());
        assertRuns(build.project(), jar);
    }

    @Test
    void tfSkipLeavesTheJarWithoutAnAnnotationList() throws Exception {
        GradleBuild build = GradleBuild.of(SampleProjects.copy("sample", "gradle-sample-skipped"));

        ProcessRunner.Result skipped = build.run("jar", "-PtfSkip=true");

        assertEquals(0, skipped.exitCode, skipped::describe);
        assertTrue(JarContents.entry(build.project().resolve(SAMPLE_JAR), TfAnnotationList.RESOURCE).isEmpty(),
                skipped::describe);
    }

    @Test
    void aCorruptClassFailsTheBuildNamingIt() throws Exception {
        GradleBuild build = GradleBuild.of(SampleProjects.copy("malformed", "gradle-malformed"));

        ProcessRunner.Result failed = build.run("jar");

        assertNotEquals(0, failed.exitCode, failed::describe);
        assertTrue(failed.output.contains("Execution failed for task ':compileJava'"), failed::describe);
        Path broken = build.project().resolve("build/classes/java/main/com/example/Broken.class");
        Matcher named = Pattern.compile("(?m)^.*\\S*com/example/Broken\\.class: .*$").matcher(failed.output);
        assertTrue(named.find(), failed::describe);
        assertTrue(named.group().contains(broken.toString()), named.group());
        assertFalse(Files.exists(build.project().resolve("build/generated/tf/resources/main")
                .resolve(TfAnnotationList.RESOURCE)), "a failed run writes no annotation list");
        assertFalse(Files.exists(build.project().resolve("build/libs/malformed.jar")));
    }

    /** The enhanced program runs on the plain JVM with nothing but tf-runtime beside it. */
    private static void assertRuns(Path project, Path jar) throws IOException, InterruptedException {
        ProcessRunner.Result run = ProcessRunner.run(List.of(ItEnvironment.javaExecutable(), "-cp",
                        jar + File.pathSeparator + ItEnvironment.runtimeJar(), "com.example.Main"),
                project, project.resolveSibling(project.getFileName() + "-run.log"), Duration.ofMinutes(1));
        assertEquals(0, run.exitCode, run::describe);
        assertEquals("read back 42 and -7000000000\n", run.output, run::describe);
    }
}
