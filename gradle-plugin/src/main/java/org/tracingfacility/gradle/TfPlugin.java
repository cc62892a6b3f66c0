package org.tracingfacility.gradle;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import org.gradle.api.Plugin;
import org.gradle.api.Project;
import org.gradle.api.Task;
import org.gradle.api.file.Directory;
import org.gradle.api.file.RegularFile;
import org.gradle.api.provider.Provider;
import org.gradle.api.tasks.SourceSet;
import org.gradle.api.tasks.SourceSetContainer;
import org.gradle.api.tasks.TaskContainer;

/**
 * Plugin {@code org.tracingfacility.tf}: once the {@code java} plugin is applied, each JVM
 * compile task of every source set ({@code compileJava}, and {@code compileKotlin},
 * {@code compileGroovy}, {@code compileScala} where the Kotlin JVM, groovy or scala plugin
 * adds them) enhances the classes it compiled, as its own last action; the source set's
 * {@code tf<SourceSet>AnnotationList} task merges the TF annotations they found into one list,
 * part of the source set's output (so the jar and the run time class path).
 *
 * <p>Nothing is created eagerly: source sets and tasks are configured as Gradle realizes them,
 * in whatever order the build applies the plugins.
 */
public class TfPlugin implements Plugin<Project> {
    /** Under the build directory; the merged list of each source set, owned by this plugin. */
    static final String RESOURCES_DIR = "generated/tf/resources/";

    /** Under the build directory; the list of each compile task, owned by this plugin. */
    static final String LISTS_DIR = "tf/annotations/";

    /** Under the build directory; the incremental cache of each compile task's classes. */
    static final String CACHE_DIR = "tf/cache/";

    /** Names of the compile task's inputs that carry the {@code tf { }} settings. */
    static final String INPUT_PREFIX = "tf.";

    @Override
    public void apply(Project project) {
        TfExtension settings = project.getExtensions()
                .create(TfExtension.NAME, TfExtension.class, project.getObjects());
        project.getPluginManager().withPlugin("java", java -> {
            SourceSetContainer sourceSets = GradleCompat.sourceSets(project);
            GradleCompat.configureEach(sourceSets, sourceSet -> addAnnotationList(project, sourceSet));
            // A compile task may be created before or after its source set reaches this plugin
            // (the Kotlin plugin may be applied after this one): each is matched when realized.
            GradleCompat.configureEach(project.getTasks(), task -> CompileTasks.sourceSetCompiledBy(task, sourceSets)
                    .ifPresent(sourceSet -> addEnhancement(project, task, sourceSet, settings)));
        });
    }

    /** The source set's merged list: one task, its output part of the source set's output. */
    private static void addAnnotationList(Project project, SourceSet sourceSet) {
        String name = annotationListTaskName(sourceSet);
        Provider<Directory> resourceDir = buildDir(project, RESOURCES_DIR + sourceSet.getName());
        List<String> compileTasks = CompileTasks.namesOf(sourceSet);
        TaskContainer tasks = project.getTasks();
        GradleCompat.registerTask(tasks, name, TfAnnotationListTask.class, task -> {
            task.setDescription("Merges the TF annotations found by the compile tasks of source set '"
                    + sourceSet.getName() + "' into " + EnhanceAction.RESOURCE_PATH + ".");
            task.setOutputDirectory(resourceDir);
            for (String compileTask : compileTasks) {
                task.getCompileTaskLists().from(listFile(project, compileTask));
            }
            // After each of the source set's compile tasks that this build has.
            task.dependsOn((Callable<List<String>>) () -> existing(compileTasks, tasks.getNames()));
        });
        sourceSet.getOutput().dir(Collections.singletonMap("builtBy", name), resourceDir);
    }

    private static void addEnhancement(Project project, Task task, SourceSet sourceSet, TfExtension settings) {
        // Only the settings that change what the task writes: verbose, threads and useCache
        // change the log or the speed, and changing them must not compile everything again.
        GradleCompat.inputProperty(task, INPUT_PREFIX + "skip", settings.getSkip());
        GradleCompat.inputProperty(task, INPUT_PREFIX + "tracegen", settings.getTracegen());
        GradleCompat.inputProperty(task, INPUT_PREFIX + "failOnError", settings.getFailOnError());
        GradleCompat.inputProperty(task, INPUT_PREFIX + "failOnSkip", settings.getFailOnSkip());
        GradleCompat.inputProperty(task, INPUT_PREFIX + "filters", settings.getFilters());
        GradleCompat.inputProperty(task, INPUT_PREFIX + "dryRun", settings.getDryRun());
        Provider<Directory> listDir = buildDir(project, LISTS_DIR + task.getName());
        task.getOutputs().dir(listDir).withPropertyName("tfAnnotationList");
        // Local state: machine-specific, never part of a build cache entry, and deleted when
        // the task's outputs come from the cache (the core then starts afresh).
        Provider<Directory> cacheDir = buildDir(project, CACHE_DIR + task.getName());
        task.getLocalState().register(cacheDir);
        task.doLast(EnhanceAction.DISPLAY_NAME,
                new EnhanceAction(settings, listDir, cacheDir, sourceSet.getCompileClasspath(),
                        SourceSet.MAIN_SOURCE_SET_NAME.equals(sourceSet.getName()), sourceSet.getRuntimeClasspath()));
    }

    static String annotationListTaskName(SourceSet sourceSet) {
        return sourceSet.getTaskName("tf", "annotationList");
    }

    private static Provider<Directory> buildDir(Project project, String path) {
        return project.getLayout().getBuildDirectory().dir(path);
    }

    private static Provider<RegularFile> listFile(Project project, String compileTask) {
        return project.getLayout().getBuildDirectory().file(LISTS_DIR + compileTask + "/" + EnhanceAction.LIST_FILE);
    }

    private static List<String> existing(List<String> names, Set<String> present) {
        List<String> found = new ArrayList<>(names);
        found.retainAll(present);
        return found;
    }
}
