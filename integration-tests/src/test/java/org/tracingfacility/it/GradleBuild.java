package org.tracingfacility.it;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Runs the real Gradle of the machine (Debian's 4.4.1 at {@code /usr/bin/gradle}; another with
 * {@code -Dtf.gradle=…}) on a copy of a test project, against the TF artifacts this reactor
 * installed in the local Maven repository.
 *
 * <p>Every run is a fresh JVM ({@code --no-daemon}) with its Gradle user home under
 * {@code target/it}, so nothing leaks into the user's {@code ~/.gradle} and a plugin jar
 * installed by the next reactor run is never shadowed by a daemon's class loader cache.
 */
final class GradleBuild {
    private static final Duration BUILD_TIMEOUT = Duration.ofMinutes(5);

    private final Path project;
    private final Path localRepository;
    private int runs;

    private GradleBuild(Path project, Path localRepository) {
        this.project = project;
        this.localRepository = localRepository;
    }

    /** Builds of {@code project}, a copy the builds may write into, against this reactor's SNAPSHOTs. */
    static GradleBuild of(Path project) {
        return new GradleBuild(project, ItEnvironment.localRepository());
    }

    /**
     * Builds of {@code project} whose {@code mavenLocal()} holds this reactor's artifacts under
     * the release version ({@link ItEnvironment#releaseRepository()}), for {@code plugins {}}.
     */
    static GradleBuild ofRelease(Path project) {
        return new GradleBuild(project, ItEnvironment.releaseRepository());
    }

    /** The Gradle executable the builds run. */
    static String executable() {
        return System.getProperty("tf.gradle", "/usr/bin/gradle");
    }

    Path project() {
        return project;
    }

    /** Runs Gradle with {@code arguments} (tasks and options); the log goes beside the project. */
    ProcessRunner.Result run(String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                executable(),
                "--no-daemon",
                "--console=plain",
                "--stacktrace",
                "--gradle-user-home=" + ItEnvironment.workDir().resolve("gradle-user-home"),
                // mavenLocal() reads this property: Gradle sees what this reactor installed.
                "-Dmaven.repo.local=" + localRepository,
                // The plugin extracts its native library here, not into the user's cache.
                "-Dtf.native.dir=" + ItEnvironment.workDir().resolve("native-cache"),
                "-PtfVersion=" + ItEnvironment.tfVersion()));
        command.addAll(Arrays.asList(arguments));
        runs++;
        Path log = project.resolveSibling(project.getFileName() + "-gradle-" + runs + ".log");
        return ProcessRunner.run(command, project, log, BUILD_TIMEOUT);
    }

    /**
     * The task status lines of a plain-console log ({@code :compileJava},
     * {@code :compileJava UP-TO-DATE}, …).
     */
    static Set<String> taskLines(ProcessRunner.Result result) {
        return Arrays.stream(result.output.split("\\R"))
                .map(String::trim)
                .filter(line -> line.startsWith(":"))
                .collect(Collectors.toSet());
    }
}
