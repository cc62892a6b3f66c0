package org.tracingfacility.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Resolves the corpus jars and their runtime dependencies from Maven Central through Maven
 * itself: one generated project per jar (so that each keeps its own dependency versions),
 * gathered under one aggregator, and one {@code dependency:copy-dependencies} run for all.
 */
final class CorpusResolver {
    private static final Duration TIMEOUT = Duration.ofMinutes(15);

    /** A jar and the jars it needs at run time. */
    static final class Resolved {
        final Path jar;
        final List<Path> dependencies;

        Resolved(Path jar, List<Path> dependencies) {
            this.jar = jar;
            this.dependencies = dependencies;
        }
    }

    private CorpusResolver() {}

    /** Resolves every Maven row of {@code jars} under {@code work}; JDK rows are left out. */
    static Map<String, Resolved> resolve(List<CorpusJar> jars, Path work) throws IOException, InterruptedException {
        Map<String, Resolved> resolved = new LinkedHashMap<>();
        List<CorpusJar> maven = jars.stream().filter(j -> !j.isJdkModule()).collect(Collectors.toList());
        if (maven.isEmpty()) {
            return resolved;
        }
        Path root = work.resolve("resolve");
        StringBuilder modules = new StringBuilder();
        for (CorpusJar jar : maven) {
            Path module = root.resolve(jar.name);
            Files.createDirectories(module);
            Files.writeString(module.resolve("pom.xml"), modulePom(jar), StandardCharsets.UTF_8);
            modules.append("    <module>").append(jar.name).append("</module>\n");
        }
        Files.writeString(root.resolve("pom.xml"), project("corpus", "<packaging>pom</packaging>\n  <modules>\n"
                + modules + "  </modules>\n"), StandardCharsets.UTF_8);

        List<String> command = List.of(ItEnvironment.mavenExecutable(), "-B", "--no-transfer-progress",
                "-Dmaven.repo.local=" + ItEnvironment.localRepository(),
                "org.apache.maven.plugins:maven-dependency-plugin:" + ItEnvironment.dependencyPluginVersion()
                        + ":copy-dependencies",
                "-DincludeScope=runtime");
        ProcessRunner.Result result = ProcessRunner.run(command, root, root.resolve("resolve.log"), TIMEOUT);
        if (result.exitCode != 0) {
            throw new IllegalStateException("resolving the corpus from Maven Central failed: " + result.describe());
        }
        for (CorpusJar jar : maven) {
            Path dir = root.resolve(jar.name).resolve("target/dependency");
            List<Path> all;
            try (Stream<Path> files = Files.list(dir)) {
                all = files.filter(p -> p.toString().endsWith(".jar")).sorted().collect(Collectors.toList());
            }
            Path self = dir.resolve(jar.jarFileName());
            if (!all.remove(self)) {
                throw new IllegalStateException(jar.name + ": Maven resolved " + all + " but not " + self.getFileName());
            }
            resolved.put(jar.name, new Resolved(self, all));
        }
        return resolved;
    }

    private static String modulePom(CorpusJar jar) {
        String[] gav = jar.gav();
        return project("corpus-" + jar.name, "<packaging>pom</packaging>\n  <dependencies>\n    <dependency>\n"
                + "      <groupId>" + gav[0] + "</groupId>\n"
                + "      <artifactId>" + gav[1] + "</artifactId>\n"
                + "      <version>" + gav[2] + "</version>\n"
                + (gav[3].isEmpty() ? "" : "      <classifier>" + gav[3] + "</classifier>\n")
                + "    </dependency>\n  </dependencies>\n");
    }

    private static String project(String artifactId, String body) {
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<project xmlns=\"http://maven.apache.org/POM/4.0.0\">\n"
                + "  <modelVersion>4.0.0</modelVersion>\n"
                + "  <groupId>org.tracingfacility.corpus</groupId>\n"
                + "  <artifactId>" + artifactId + "</artifactId>\n"
                + "  <version>1</version>\n"
                + "  " + body
                + "</project>\n";
    }

    /** Every jar one corpus row links against: its dependencies, then tf-runtime. */
    static List<Path> linkPath(Resolved resolved) {
        List<Path> path = new ArrayList<>(resolved == null ? List.of() : resolved.dependencies);
        path.add(ItEnvironment.runtimeJar());
        return path;
    }
}
