package org.tracingfacility.it;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

/**
 * Builds of one project copy by one Maven distribution, against the TF artifacts this
 * reactor installed. Each run's log goes beside the project (so {@code clean} keeps it).
 */
final class MavenBuild {
    static final Duration BUILD_TIMEOUT = Duration.ofMinutes(5);

    private final String executable;
    private final Path project;
    private final Duration timeout;
    private int runs;

    private MavenBuild(String executable, Path project, Duration timeout) {
        this.executable = executable;
        this.project = project;
        this.timeout = timeout;
    }

    /** Builds of {@code project} by the Maven at {@code executable}. */
    static MavenBuild of(String executable, Path project) {
        return new MavenBuild(executable, project, BUILD_TIMEOUT);
    }

    /** The same builds, each allowed {@code timeout}. */
    MavenBuild withTimeout(Duration timeout) {
        return new MavenBuild(executable, project, timeout);
    }

    /** A short tag naming the distribution, for project copies: {@code ""} (3.8) or {@code "-3.9"}. */
    static String tag(String executable) {
        return executable.equals(ItEnvironment.mavenExecutable()) ? "" : "-3.9";
    }

    /** The Mavens the Maven integration builds run with: the machine's 3.8 and the newest 3.9. */
    static Stream<String> executables() {
        return Stream.of(ItEnvironment.mavenExecutable(), ItEnvironment.maven39Executable());
    }

    Path project() {
        return project;
    }

    ProcessRunner.Result run(String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(executable, "-B", "--no-transfer-progress",
                "-Dmaven.repo.local=" + ItEnvironment.localRepository(),
                "-Dtf.version=" + ItEnvironment.tfVersion()));
        command.addAll(Arrays.asList(arguments));
        runs++;
        Path log = project.resolveSibling(project.getFileName() + "-mvn-" + runs + ".log");
        return ProcessRunner.run(command, project, log, timeout);
    }
}
