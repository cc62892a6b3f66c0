package org.tracingfacility.gradle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Path;
import org.gradle.api.GradleException;
import org.gradle.api.Project;
import org.gradle.api.Task;
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

    @Test
    void destinationDirIsWhereJavacWritesTheSourceSetsClasses() {
        Project project = TestProjects.javaProjectWithTf(projectDir);

        File classes = GradleCompat.destinationDir(project.getTasks().getByName("compileTestJava"));

        assertEquals(new File(project.getLayout().getBuildDirectory().get().getAsFile(), "classes/java/test"), classes);
    }

    @Test
    void aTaskThatCompilesNothingIsRefusedByName() {
        Project project = TestProjects.javaProjectWithTf(projectDir);
        Task jar = project.getTasks().getByName("jar");

        GradleException refusal = assertThrows(GradleException.class, () -> GradleCompat.destinationDir(jar));

        assertTrue(refusal.getMessage().contains(":jar"), refusal.getMessage());
    }
}
