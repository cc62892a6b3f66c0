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
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Real Maven builds of the projects under {@code projects/}, applying the tf-maven-plugin
 * this reactor installed, each with the machine's Maven 3.8 and with the newest Maven 3.9.
 */
class MavenBuildIT {
    private static final Duration BUILD_TIMEOUT = MavenBuild.BUILD_TIMEOUT;
    private static final String MAVENS = "org.tracingfacility.it.MavenBuild#executables";
    private static final String SAMPLE_JAR = "target/tf-sample-1.0.0-SNAPSHOT.jar";

    @ParameterizedTest
    @MethodSource(MAVENS)
    void theJarListsTheSampleTfAnnotationsAndTheEnhancedProgramRuns(String mvn) throws Exception {
        Path project = SampleProjects.copy("sample", "maven-sample" + MavenBuild.tag(mvn));
        MavenBuild maven = MavenBuild.of(mvn, project);

        ProcessRunner.Result build = maven.run("package");

        assertEquals(0, build.exitCode, build::describe);
        Path jar = project.resolve(SAMPLE_JAR);
        byte[] list = JarContents.entry(jar, TfAnnotationList.RESOURCE)
                .orElseThrow(() -> new AssertionError(TfAnnotationList.RESOURCE + " is missing from " + jar));
        // Subgroups (IORead, IOWrite) count even without the meta-annotation; CLASS retention too.
        assertEquals(List.of("com.example.IO", "com.example.IORead", "com.example.IOWrite", "com.example.Lifecycle"),
                TfAnnotationList.parse(list));
        // tf:enhance-tests wrote the test classes' own list.
        assertEquals(List.of("com.example.Probe"), TfAnnotationList.parse(
                Files.readAllBytes(project.resolve("target/test-classes").resolve(TfAnnotationList.RESOURCE))));

        ProcessRunner.Result run = ProcessRunner.run(List.of(ItEnvironment.javaExecutable(), "-cp",
                        jar + File.pathSeparator + ItEnvironment.runtimeJar(), "com.example.Main"),
                project, project.resolveSibling(project.getFileName() + "-run.log"), BUILD_TIMEOUT);
        assertEquals(0, run.exitCode, run::describe);
        assertEquals("read back 42 and -7000000000\n", run.output, run::describe);

        ProcessRunner.Result rebuild = maven.run("clean", "package");
        assertEquals(0, rebuild.exitCode, rebuild::describe);
        assertArrayEquals(list, JarContents.entry(project.resolve(SAMPLE_JAR), TfAnnotationList.RESOURCE).orElseThrow(),
                "a clean rebuild writes the same bytes");
    }

    @Test
    void helpGoalDescribesEveryGoalAndParameterWithItsProperty() throws Exception {
        // The sample's pom declares the plugin, so the prefix tf resolves to it.
        MavenBuild maven = MavenBuild.of(ItEnvironment.mavenExecutable(), SampleProjects.copy("sample", "maven-help"));

        ProcessRunner.Result help = maven.run("tf:help", "-Ddetail");

        assertEquals(0, help.exitCode, help::describe);
        for (String goal : List.of("tf:enhance", "tf:enhance-tests", "tf:help")) {
            assertTrue(Pattern.compile("(?m)^(\\[INFO\\] )?" + Pattern.quote(goal) + "\\s*$").matcher(help.output).find(),
                    goal + " is not listed:\n" + help.output);
        }
        for (String property : List.of("tf.skip", "tf.tracegen", "tf.verbose", "tf.failOnError", "tf.filters",
                "tf.dryRun", "tf.threads", "tf.useCache")) {
            assertTrue(help.output.contains("User property: " + property), property + " is not described:\n" + help.output);
        }
    }

    @ParameterizedTest
    @MethodSource(MAVENS)
    void tfSkipWritesNothing(String mvn) throws Exception {
        Path project = SampleProjects.copy("sample", "maven-sample-skipped" + MavenBuild.tag(mvn));
        MavenBuild maven = MavenBuild.of(mvn, project);

        ProcessRunner.Result build = maven.run("package", "-Dtf.skip=true");

        assertEquals(0, build.exitCode, build::describe);
        assertEquals(2, count(build.output, "TF enhancement skipped (tf.skip=true)"), build::describe);
        assertFalse(Files.exists(project.resolve("target/classes").resolve(TfAnnotationList.RESOURCE)));
        assertFalse(Files.exists(project.resolve("target/test-classes").resolve(TfAnnotationList.RESOURCE)));
        assertTrue(JarContents.entry(project.resolve(SAMPLE_JAR), TfAnnotationList.RESOURCE).isEmpty());
    }

    @ParameterizedTest
    @MethodSource(MAVENS)
    void aCorruptClassFailsTheBuildNamingItAndLeavesNothingBehind(String mvn) throws Exception {
        Path project = SampleProjects.copy("malformed", "maven-malformed" + MavenBuild.tag(mvn));
        MavenBuild maven = MavenBuild.of(mvn, project);

        ProcessRunner.Result build = maven.run("package");

        assertNotEquals(0, build.exitCode, build::describe);
        Path broken = project.resolve("target/classes/com/example/Broken.class");
        assertTrue(Files.exists(broken), "the corrupt class reached target/classes");
        Matcher named = Pattern.compile("(?m)^.*\\S*com/example/Broken\\.class: .*$").matcher(build.output);
        assertTrue(named.find(), build::describe);
        assertTrue(named.group().contains(broken.toString()), named.group());
        assertFalse(Files.exists(project.resolve("target/classes").resolve(TfAnnotationList.RESOURCE)));
        assertEquals(List.of(), leftovers(project.resolve("target/classes")));
    }

    /** Temporary or half-written files the core could have left in a class directory. */
    private static List<Path> leftovers(Path classes) throws IOException {
        try (Stream<Path> files = Files.walk(classes)) {
            return files.filter(Files::isRegularFile)
                    .filter(f -> {
                        String name = f.getFileName().toString();
                        return name.endsWith(".tmp") || name.endsWith(".new") || name.startsWith(".tf-");
                    })
                    .collect(Collectors.toList());
        }
    }

    private static int count(String text, String part) {
        int count = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length())) {
            count++;
        }
        return count;
    }
}
