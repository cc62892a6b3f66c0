package org.tracingfacility.gradle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.gradle.api.Action;
import org.gradle.api.Describable;
import org.gradle.api.Project;
import org.gradle.api.Task;
import org.gradle.api.tasks.SourceSet;
import org.gradle.api.tasks.compile.JavaCompile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How applying the plugin wires a Java project (ProjectBuilder, Gradle 8 API). */
class TfPluginTest {
    @TempDir
    Path projectDir;

    @Test
    void extensionStartsWithTheMavenPluginsDefaults() {
        TfExtension tf = TestProjects.javaProjectWithTf(projectDir).getExtensions().getByType(TfExtension.class);

        assertFalse(tf.getSkip().get());
        assertTrue(tf.getTracegen().get());
        assertEquals(0, tf.getVerbose().get());
        assertTrue(tf.getFailOnError().get());
        assertFalse(tf.getFailOnSkip().get());
        assertEquals(Collections.emptyList(), tf.getFilters().get());
        assertEquals(0, tf.getThreads().get());
        assertFalse(tf.getDryRun().get());
        assertTrue(tf.getUseCache().get());
    }

    @Test
    void everySourceSetsCompileTaskEnhancesAfterJavac() {
        Project project = TestProjects.javaProjectWithTf(projectDir);

        for (String taskName : Arrays.asList("compileJava", "compileTestJava")) {
            List<String> actions = actionNames(project.getTasks().getByName(taskName));
            assertTrue(actions.size() >= 2, taskName + " actions: " + actions);
            String last = actions.get(actions.size() - 1);
            assertTrue(last.contains(EnhanceAction.DISPLAY_NAME), taskName + " actions: " + actions);
            assertEquals(1, actions.stream().filter(name -> name.contains(EnhanceAction.DISPLAY_NAME)).count(),
                    taskName + " actions: " + actions);
        }
    }

    @Test
    void sourceSetsAddedLaterAreEnhancedToo() {
        Project project = TestProjects.javaProjectWithTf(projectDir);

        SourceSet integration = GradleCompat.sourceSets(project).create("integration");

        Task compile = project.getTasks().getByName(integration.getCompileJavaTaskName());
        assertTrue(actionNames(compile).stream().anyMatch(name -> name.contains(EnhanceAction.DISPLAY_NAME)));
        assertTrue(integration.getOutput().getDirs().getFiles().contains(resourceDir(project, "integration")));
    }

    @Test
    void testFixturesAreEnhancedLikeEverySourceSet() {
        Project project = TestProjects.javaProjectWithTf(projectDir);

        project.getPluginManager().apply("java-test-fixtures");

        Task compile = project.getTasks().getByName("compileTestFixturesJava");
        List<String> actions = actionNames(compile);
        assertTrue(actions.get(actions.size() - 1).contains(EnhanceAction.DISPLAY_NAME), "actions: " + actions);
        assertTrue(GradleCompat.sourceSets(project).getByName("testFixtures").getOutput().getDirs().getFiles()
                .contains(resourceDir(project, "testFixtures")));
    }

    @Test
    void javaPluginAppliedAfterTfIsWiredAlike() {
        Project project = TestProjects.project(projectDir);
        project.getPluginManager().apply("org.tracingfacility.tf");
        assertNotNull(project.getExtensions().findByType(TfExtension.class));
        assertTrue(project.getTasks().findByName("compileJava") == null, "no java plugin, no compile task");

        project.getPluginManager().apply("java");

        assertTrue(actionNames(project.getTasks().getByName("compileJava")).stream()
                .anyMatch(name -> name.contains(EnhanceAction.DISPLAY_NAME)));
    }

    @Test
    void eachCompileTasksListIsItsOutputAndTheMergedListIsTheSourceSets() {
        Project project = TestProjects.javaProjectWithTf(projectDir);
        SourceSet main = GradleCompat.sourceSets(project).getByName("main");
        Task compileJava = project.getTasks().getByName("compileJava");
        Task annotationList = project.getTasks().getByName("tfAnnotationList");
        File merged = resourceDir(project, "main");

        File ownList = project.getLayout().getBuildDirectory().dir(TfPlugin.LISTS_DIR + "compileJava").get().getAsFile();
        assertTrue(compileJava.getOutputs().getFiles().getFiles().contains(ownList),
                "compileJava outputs: " + compileJava.getOutputs().getFiles().getFiles());
        assertFalse(compileJava.getOutputs().getFiles().getFiles().contains(merged), "one task writes the merged list");
        assertTrue(annotationList.getOutputs().getFiles().getFiles().contains(merged));
        assertTrue(main.getOutput().getDirs().getFiles().contains(merged),
                "main output dirs: " + main.getOutput().getDirs().getFiles());
        assertTrue(main.getOutput().getFiles().contains(merged), "the jar and run time class path take main's output");
        Set<? extends Task> builders = main.getOutput().getBuildDependencies().getDependencies(null);
        assertTrue(builders.containsAll(Arrays.asList(compileJava, annotationList)), "main output built by: " + builders);
    }

    @Test
    void groovySourcesAreEnhancedByCompileGroovyAndJoinTheSourceSetsList() {
        Project project = TestProjects.javaProjectWithTf(projectDir);

        project.getPluginManager().apply("groovy");

        Task compileGroovy = project.getTasks().getByName("compileGroovy");
        List<String> actions = actionNames(compileGroovy);
        assertTrue(actions.get(actions.size() - 1).contains(EnhanceAction.DISPLAY_NAME), "actions: " + actions);
        assertEquals(Set.of("compileJava", "compileGroovy"), dependencyNames(project, "tfAnnotationList"));
        assertEquals(Set.of("compileTestJava", "compileTestGroovy"), dependencyNames(project, "tfTestAnnotationList"));
    }

    @Test
    void scalaSourcesAreEnhancedByCompileScalaAndJoinTheSourceSetsList() {
        Project project = TestProjects.javaProjectWithTf(projectDir);

        project.getPluginManager().apply("scala");

        List<String> actions = actionNames(project.getTasks().getByName("compileScala"));
        assertTrue(actions.get(actions.size() - 1).contains(EnhanceAction.DISPLAY_NAME), "actions: " + actions);
        assertEquals(Set.of("compileJava", "compileScala"), dependencyNames(project, "tfAnnotationList"));
    }

    @Test
    void aKotlinStyleCompileTaskAddedAfterTfIsEnhancedAndMerged() {
        Project project = TestProjects.javaProjectWithTf(projectDir);

        Task compileKotlin = project.getTasks().create("compileKotlin", KotlinStyleCompile.class);

        assertTrue(actionNames(compileKotlin).stream().anyMatch(name -> name.contains(EnhanceAction.DISPLAY_NAME)));
        assertEquals(Set.of("compileJava", "compileKotlin"), dependencyNames(project, "tfAnnotationList"));
        assertTrue(project.getTasks().getByName("tfAnnotationList").getInputs().getFiles().getFiles().contains(
                project.getLayout().getBuildDirectory().file(TfPlugin.LISTS_DIR + "compileKotlin/"
                        + EnhanceAction.LIST_FILE).get().getAsFile()));
    }

    @Test
    void settingsThatChangeTheOutputAreInputsOfTheCompileTaskReadLazily() {
        Project project = TestProjects.javaProjectWithTf(projectDir);
        TfExtension tf = project.getExtensions().getByType(TfExtension.class);
        Task compileJava = project.getTasks().getByName("compileJava");

        tf.getFilters().add("com.example.Service::work");
        tf.getDryRun().set(true);

        Map<String, Object> inputs = compileJava.getInputs().getProperties();
        assertEquals(false, inputs.get("tf.skip"));
        assertEquals(true, inputs.get("tf.tracegen"));
        assertEquals(true, inputs.get("tf.failOnError"));
        assertEquals(false, inputs.get("tf.failOnSkip"));
        assertEquals(Collections.singletonList("com.example.Service::work"), inputs.get("tf.filters"));
        assertEquals(true, inputs.get("tf.dryRun"));
    }

    @Test
    void settingsThatChangeOnlyTheLogOrTheSpeedAreNotInputs() {
        Project project = TestProjects.javaProjectWithTf(projectDir);

        Set<String> inputs = project.getTasks().getByName("compileJava").getInputs().getProperties().keySet();

        for (String setting : Arrays.asList("verbose", "threads", "useCache")) {
            assertFalse(inputs.contains(TfPlugin.INPUT_PREFIX + setting), setting + " is an input: " + inputs);
        }
    }

    @Test
    void applyingThePluginCreatesNoTask() {
        Project project = TestProjects.project(projectDir);
        List<String> realized = new ArrayList<>();
        project.getTasks().withType(JavaCompile.class).configureEach(task -> realized.add(task.getName()));

        project.getPluginManager().apply("java");
        project.getPluginManager().apply("org.tracingfacility.tf");
        project.getExtensions().getByType(TfExtension.class).getVerbose().set(1);

        assertEquals(Collections.emptyList(), realized);
        project.getTasks().getByName("compileJava");
        assertEquals(Collections.singletonList("compileJava"), realized, "the probe sees a realized task");
    }

    private static File resourceDir(Project project, String sourceSet) {
        return project.getLayout().getBuildDirectory().dir(TfPlugin.RESOURCES_DIR + sourceSet).get().getAsFile();
    }

    private static Set<String> dependencyNames(Project project, String taskName) {
        Task task = project.getTasks().getByName(taskName);
        return task.getTaskDependencies().getDependencies(task).stream().map(Task::getName).collect(Collectors.toSet());
    }

    private static List<String> actionNames(Task task) {
        return task.getActions().stream().map(TfPluginTest::displayName).collect(Collectors.toList());
    }

    private static String displayName(Action<? super Task> action) {
        return action instanceof Describable ? ((Describable) action).getDisplayName() : action.toString();
    }
}
