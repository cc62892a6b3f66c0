package org.tracingfacility.gradle;

import java.io.File;
import java.nio.file.Path;
import org.gradle.api.Project;
import org.gradle.testfixtures.ProjectBuilder;

/** Projects built by {@link ProjectBuilder} on the Gradle 8 API jars. */
final class TestProjects {
    private TestProjects() {}

    /** A bare project in {@code dir}; its Gradle user home stays under {@code target/}. */
    static Project project(Path dir) {
        ProjectBuilder builder = ProjectBuilder.builder().withProjectDir(dir.toFile());
        String userHome = System.getProperty("tf.test.gradleUserHome");
        if (userHome != null) {
            builder.withGradleUserHomeDir(new File(userHome));
        }
        return builder.build();
    }

    /** A project with the {@code java} plugin and then TF applied. */
    static Project javaProjectWithTf(Path dir) {
        Project project = project(dir);
        project.getPluginManager().apply("java");
        project.getPluginManager().apply("org.tracingfacility.tf");
        return project;
    }
}
