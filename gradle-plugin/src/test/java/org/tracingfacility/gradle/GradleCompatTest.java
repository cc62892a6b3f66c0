package org.tracingfacility.gradle;

import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.file.Path;
import org.gradle.api.Project;
import org.gradle.api.plugins.JavaPluginExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Gradle 8 side of {@link GradleCompat} (the 4.4.1 side runs in the integration builds). */
class GradleCompatTest {
    @TempDir
    Path projectDir;

    @Test
    void sourceSetsAreTheJavaExtensions() {
        Project project = TestProjects.javaProjectWithTf(projectDir);

        assertSame(project.getExtensions().getByType(JavaPluginExtension.class).getSourceSets(),
                GradleCompat.sourceSets(project));
    }
}
