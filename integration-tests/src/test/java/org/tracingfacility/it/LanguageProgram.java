package org.tracingfacility.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A program under {@code projects/} built by real Maven with its language's compiler plugin and
 * {@code tf:enhance}, then run with its recording monitor attached: what it prints, line by line.
 * Each program's recorder prints {@code enter C.m}, {@code exit C.m -> result} and
 * {@code exception C.m Type: message}, where {@code C} is the class name without its package
 * and {@code m} the method's tracing name.
 */
final class LanguageProgram {
    private final Path project;

    private LanguageProgram(Path project) {
        this.project = project;
    }

    /**
     * Copies {@code projects/<name>} to {@code target/it/<copyName>} and builds it
     * ({@code mvn package}, with {@code arguments}).
     */
    static LanguageProgram build(String name, String copyName, String... arguments) throws Exception {
        Path project = SampleProjects.copy(name, copyName);
        String[] command = new String[arguments.length + 1];
        command[0] = "package";
        System.arraycopy(arguments, 0, command, 1, arguments.length);
        ProcessRunner.Result build = MavenBuild.of(ItEnvironment.mavenExecutable(), project).run(command);
        assertEquals(0, build.exitCode, build::describe);
        return new LanguageProgram(project);
    }

    Path classes() {
        return project.resolve("target/classes");
    }

    /**
     * Runs {@code mainClass} on the enhanced classes and the libraries the build copied to
     * {@code target/lib} (HotSpot verifies every class of the application class path); asserts
     * it succeeded.
     *
     * @return its output lines
     */
    List<String> run(String mainClass) throws Exception {
        String classPath = classes() + File.pathSeparator + project.resolve("target/lib") + File.separator + "*";
        ProcessRunner.Result run = ProcessRunner.run(
                List.of(ItEnvironment.javaExecutable(), "-cp", classPath, mainClass),
                project, project.resolveSibling(project.getFileName() + "-run.log"), MavenBuild.BUILD_TIMEOUT);
        assertEquals(0, run.exitCode, run::describe);
        return Arrays.asList(run.output.split("\n"));
    }

    /** An invocation that calls nothing monitored: its enter, and its exit with {@code result}. */
    static List<String> invocation(String method, String result) {
        return List.of("enter " + method, "exit " + method + " -> " + result);
    }

    /** The same events, as the Kotlin recorder prints them when they happen on a thread other than main. */
    static List<String> offMain(List<String> events) {
        return events.stream().map(event -> event + " (off main)").collect(Collectors.toList());
    }
}
