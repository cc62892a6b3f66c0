package org.tracingfacility.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.Set;
import java.util.stream.Stream;

/** Fresh copies of the projects under {@code integration-tests/projects}, one per test. */
final class SampleProjects {
    /** Build outputs of either build tool: never copied, so every copy starts clean. */
    private static final Set<String> BUILD_OUTPUTS = Set.of("target", "build", ".gradle");

    private SampleProjects() {}

    /**
     * Copies {@code projects/<project>} to {@code target/it/<copyName>}, replacing an earlier copy.
     *
     * @return the copy's directory
     */
    static Path copy(String project, String copyName) throws IOException {
        Path source = ItEnvironment.projectsDir().resolve(project);
        if (!Files.isDirectory(source)) {
            throw new IOException("no project " + source);
        }
        return copyTree(source, copyName);
    }

    /**
     * Copies {@code projects/<project>} to {@code target/it/<copyName>}, then the Gradle 8 build
     * files of {@code projects/gradle8-overlays/<project>} over it.
     *
     * @return the copy's directory
     */
    static Path copyForGradle8(String project, String copyName) throws IOException {
        Path copy = copy(project, copyName);
        Path overlay = ItEnvironment.projectsDir().resolve("gradle8-overlays").resolve(project);
        try (Stream<Path> files = Files.list(overlay)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                Files.copy(file, copy.resolve(file.getFileName().toString()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        return copy;
    }

    /** Copies a project's sources (not its build outputs) to {@code target/it/<copyName>}. */
    static Path copyTree(Path source, String copyName) throws IOException {
        Path target = ItEnvironment.workDir().resolve(copyName);
        deleteRecursively(target);
        Files.createDirectories(target.getParent());
        try (Stream<Path> files = Files.walk(source)) {
            files.filter(file -> !isBuildOutput(source.relativize(file))).forEach(file -> {
                try {
                    Files.copy(file, target.resolve(source.relativize(file).toString()));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
        return target;
    }

    private static boolean isBuildOutput(Path relative) {
        return relative.getNameCount() > 0 && BUILD_OUTPUTS.contains(relative.getName(0).toString());
    }

    /** Deletes {@code dir} and everything in it; a missing one is no error. */
    static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
                Files.delete(file);
            }
        }
    }
}
