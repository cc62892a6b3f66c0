package org.tracingfacility.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Runs Gradle 8.11.1 ({@code ../shared/gradle8/gradle8} beside the repository: a real Gradle
 * assembled from Maven Central, Groovy DSL only) on a copy of a test project, against the TF
 * artifacts this reactor installed in the local Maven repository.
 *
 * <p>The builds of one test share a Gradle user home of their own under {@code target/it}, so
 * its configuration cache and build cache are the test's, and nothing reaches {@code ~/.gradle}.
 * Gradle 8 accepts a {@code -SNAPSHOT} plugin version in {@code plugins {}}: the projects apply
 * TF as the README shows users.
 */
final class Gradle8Build {
    private static final Duration BUILD_TIMEOUT = Duration.ofMinutes(5);

    private Path project;
    private final Path userHome;
    private int runs;

    private Gradle8Build(Path project, Path userHome) {
        this.project = project;
        this.userHome = userHome;
    }

    /**
     * Builds of {@code project} (a copy they may write into) with a fresh Gradle user home
     * {@code target/it/<userHomeName>}: no build cache entry or downloaded plugin of an earlier
     * run of the test decides an outcome.
     */
    static Gradle8Build of(Path project, String userHomeName) throws IOException {
        Path userHome = ItEnvironment.workDir().resolve(userHomeName);
        SampleProjects.deleteRecursively(userHome);
        return new Gradle8Build(project, userHome);
    }

    /** The gradle8 launcher; fails, saying where it was looked for, when it is missing. */
    static Path executable() {
        return ItEnvironment.gradle8Executable();
    }

    Path project() {
        return project;
    }

    /** Moves the project directory (build outputs and all) to {@code target/it/<newName>}. */
    void moveTo(String newName) throws IOException {
        Path target = ItEnvironment.workDir().resolve(newName);
        SampleProjects.deleteRecursively(target);
        Files.createDirectories(target.getParent());
        project = Files.move(project, target);
    }

    /** Runs Gradle with {@code arguments} (tasks and options); the log goes beside the project. */
    ProcessRunner.Result run(String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                executable().toString(),
                "--console=plain",
                "--stacktrace",
                "--gradle-user-home=" + userHome,
                // mavenLocal() reads this property: Gradle sees what this reactor installed.
                "-Dmaven.repo.local=" + ItEnvironment.localRepository(),
                // The plugin extracts its native library here, not into the user's cache.
                "-Dtf.native.dir=" + ItEnvironment.workDir().resolve("native-cache")));
        command.addAll(Arrays.asList(arguments));
        runs++;
        Path log = ItEnvironment.workDir().resolve(project.getFileName() + "-gradle8-" + runs + ".log");
        return ProcessRunner.run(command, project, log, BUILD_TIMEOUT);
    }
}
