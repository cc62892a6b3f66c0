package org.tracingfacility.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Mistakes a new user makes in a real Maven build of the sample project, which TF must name
 * rather than accept in silence: tf-runtime not on the class path the program runs with, and a
 * filter naming a dependency's class (which build-time TF never sees).
 */
class SetupMistakesIT {
    private static final Pattern RUNTIME_DEPENDENCY =
            Pattern.compile("(<artifactId>tf-runtime</artifactId>\\s*<version>\\$\\{tf.version}</version>)");

    @Test
    void tfRuntimeInProvidedScopeFailsTheBuildSayingWhatToAdd() throws Exception {
        Path project = SampleProjects.copy("sample", "maven-sample-runtime-provided");
        Path pom = project.resolve("pom.xml");
        String text = Files.readString(pom);
        Matcher dependency = RUNTIME_DEPENDENCY.matcher(text);
        assertTrue(dependency.find(), "the sample's pom declares tf-runtime");
        // It compiles (the annotations are there) but is not on the runtime class path.
        Files.writeString(pom, dependency.replaceFirst("$1<scope>provided</scope>"));

        ProcessRunner.Result build = MavenBuild.of(ItEnvironment.mavenExecutable(), project).run("package");

        assertNotEquals(0, build.exitCode, build::describe);
        assertTrue(build.output.contains("but it is not on the class path they will run with"), build::describe);
        assertTrue(build.output.contains("add the dependency org.tracingfacility:tf-runtime with the default scope"
                + " (Maven: compile, not provided or test;"), build::describe);
        assertTrue(build.output.contains("[runtime-missing]"), build::describe);
        assertFalse(Files.exists(project.resolve("target/classes").resolve(TfAnnotationList.RESOURCE)),
                "nothing is written");
    }

    @Test
    void aFilterNamingADependencyClassIsOneWarningNamingIt() throws Exception {
        Path project = SampleProjects.copy("sample", "maven-sample-unused-filter");
        String filter = "org.tracingfacility.runtime.MethodMonitorRegistry::register";

        ProcessRunner.Result build = MavenBuild.of(ItEnvironment.mavenExecutable(), project)
                .run("package", "-Dtf.filters=" + filter);

        assertEquals(0, build.exitCode, build::describe);
        String warning = "[WARNING] TF: filter '" + filter + "' selected no method of the classes in "
                + project.resolve("target/classes") + ": TF enhances only the classes compiled here, not those of"
                + " dependencies (README: \"Tracing dependencies\")";
        assertTrue(build.output.contains(warning), build::describe);
        assertEquals(1, build.output.split("selected no method", -1).length - 1,
                "one warning, from the main classes only: " + build.describe());
    }
}
