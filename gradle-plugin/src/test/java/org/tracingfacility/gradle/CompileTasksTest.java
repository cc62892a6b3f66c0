package org.tracingfacility.gradle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Path;
import java.util.Arrays;
import org.gradle.api.GradleException;
import org.gradle.api.Project;
import org.gradle.api.Task;
import org.gradle.api.tasks.SourceSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which tasks are a source set's JVM compile tasks, and where they write (ProjectBuilder, Gradle 8). */
class CompileTasksTest {
    @TempDir
    Path projectDir;

    @Test
    void everyJvmLanguageHasItsCompileTaskName() {
        Project project = TestProjects.javaProjectWithTf(projectDir);
        SourceSet test = GradleCompat.sourceSets(project).getByName("test");

        assertEquals(Arrays.asList("compileTestJava", "compileTestGroovy", "compileTestScala", "compileTestKotlin"),
                CompileTasks.namesOf(test));
    }

    @Test
    void destinationDirIsWhereJavacWritesTheSourceSetsClasses() {
        Project project = TestProjects.javaProjectWithTf(projectDir);

        File classes = CompileTasks.destinationDir(project.getTasks().getByName("compileTestJava"));

        assertEquals(new File(project.getLayout().getBuildDirectory().get().getAsFile(), "classes/java/test"), classes);
    }

    @Test
    void aKotlinStyleTaskIsReadThroughItsDestinationDirectoryProperty() {
        Project project = TestProjects.javaProjectWithTf(projectDir);
        File kotlinClasses = new File(projectDir.toFile(), "build/classes/kotlin/main");
        KotlinStyleCompile compileKotlin = project.getTasks().create("compileKotlin", KotlinStyleCompile.class,
                task -> task.getDestinationDirectory().set(kotlinClasses));

        assertTrue(CompileTasks.writesClassDirectory(compileKotlin));
        assertEquals(kotlinClasses, CompileTasks.destinationDir(compileKotlin));
        assertEquals("main", CompileTasks.sourceSetCompiledBy(compileKotlin, GradleCompat.sourceSets(project))
                .map(SourceSet::getName).orElse("none"));
    }

    @Test
    void aTaskWithACompileTasksNameButNoClassDirectoryIsNotOne() {
        Project project = TestProjects.javaProjectWithTf(projectDir);

        Task impostor = project.getTasks().create("compileScala");

        assertFalse(CompileTasks.sourceSetCompiledBy(impostor, GradleCompat.sourceSets(project)).isPresent());
    }

    @Test
    void aTaskThatCompilesNothingIsRefusedByName() {
        Project project = TestProjects.javaProjectWithTf(projectDir);
        Task clean = project.getTasks().getByName("clean");

        GradleException refusal = assertThrows(GradleException.class, () -> CompileTasks.destinationDir(clean));

        assertTrue(refusal.getMessage().contains(":clean"), refusal.getMessage());
    }
}
