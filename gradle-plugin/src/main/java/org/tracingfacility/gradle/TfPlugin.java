package org.tracingfacility.gradle;

import java.util.Collections;
import org.gradle.api.Plugin;
import org.gradle.api.Project;
import org.gradle.api.Task;
import org.gradle.api.file.Directory;
import org.gradle.api.file.FileCollection;
import org.gradle.api.provider.Provider;
import org.gradle.api.tasks.SourceSet;

/**
 * Plugin {@code org.tracingfacility.tf}: once the {@code java} plugin is applied, every
 * source set's {@code compileJava} task enhances the classes it compiled, and the TF
 * annotation list joins that source set's output (so the jar and the run time class path).
 *
 * <p>Nothing is created eagerly: source sets and tasks are configured as Gradle realizes them.
 */
public class TfPlugin implements Plugin<Project> {
    /** Under the build directory; one subdirectory per source set, owned by this plugin. */
    static final String RESOURCES_DIR = "generated/tf/resources/";

    /** Under the build directory; the incremental cache of each source set's classes. */
    static final String CACHE_DIR = "tf/cache/";

    /** Names of the compile task's inputs that carry the {@code tf { }} settings. */
    static final String INPUT_PREFIX = "tf.";

    @Override
    public void apply(Project project) {
        TfExtension settings = project.getExtensions()
                .create(TfExtension.NAME, TfExtension.class, project.getObjects());
        project.getPluginManager().withPlugin("java", java -> GradleCompat.configureEach(
                GradleCompat.sourceSets(project),
                sourceSet -> enhanceOutputOf(project, sourceSet, settings)));
    }

    private static void enhanceOutputOf(Project project, SourceSet sourceSet, TfExtension settings) {
        String compileTask = sourceSet.getCompileJavaTaskName();
        Provider<Directory> resourceDir =
                project.getLayout().getBuildDirectory().dir(RESOURCES_DIR + sourceSet.getName());
        // Part of the source set's output, built by the compile task that writes it.
        sourceSet.getOutput().dir(Collections.singletonMap("builtBy", compileTask), resourceDir);
        Provider<Directory> cacheDir = project.getLayout().getBuildDirectory().dir(CACHE_DIR + sourceSet.getName());
        FileCollection classpath = sourceSet.getCompileClasspath();
        GradleCompat.configureTask(project.getTasks(), compileTask,
                task -> addEnhancement(task, settings, resourceDir, cacheDir, classpath));
    }

    private static void addEnhancement(Task task, TfExtension settings, Provider<Directory> resourceDir,
            Provider<Directory> cacheDir, FileCollection classpath) {
        GradleCompat.inputProperty(task, INPUT_PREFIX + "skip", settings.getSkip());
        GradleCompat.inputProperty(task, INPUT_PREFIX + "tracegen", settings.getTracegen());
        GradleCompat.inputProperty(task, INPUT_PREFIX + "verbose", settings.getVerbose());
        GradleCompat.inputProperty(task, INPUT_PREFIX + "failOnError", settings.getFailOnError());
        GradleCompat.inputProperty(task, INPUT_PREFIX + "failOnSkip", settings.getFailOnSkip());
        GradleCompat.inputProperty(task, INPUT_PREFIX + "filters", settings.getFilters());
        GradleCompat.inputProperty(task, INPUT_PREFIX + "threads", settings.getThreads());
        task.getOutputs().dir(resourceDir).withPropertyName("tfResources");
        // Local state: machine-specific, never part of a build cache entry, and deleted
        // when the task's outputs come from the cache (the core then starts afresh).
        task.getLocalState().register(cacheDir);
        task.doLast(EnhanceAction.DISPLAY_NAME, new EnhanceAction(settings, resourceDir, cacheDir, classpath));
    }
}
