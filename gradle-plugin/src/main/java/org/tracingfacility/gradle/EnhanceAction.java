package org.tracingfacility.gradle;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.gradle.api.Action;
import org.gradle.api.GradleException;
import org.gradle.api.Task;
import org.gradle.api.file.Directory;
import org.gradle.api.file.FileCollection;
import org.gradle.api.provider.Provider;
import org.gradle.api.tasks.compile.AbstractCompile;
import org.tracingfacility.core.EnhanceRequest;
import org.tracingfacility.core.Enhancement;
import org.tracingfacility.core.NativeCoreException;

/**
 * Enhances the classes a compile task has just written, as the last action of that task.
 *
 * <p>Running inside the compile task keeps the enhanced bytes that task's own outputs: no
 * other task writes its directory, and a second build finds it UP-TO-DATE. The TF annotations
 * found in that directory go to a list of this task's own ({@link #LIST_FILE} in a
 * plugin-owned directory), which {@link TfAnnotationListTask} merges with the lists of the
 * source set's other compile tasks. The action holds only lazy values (the settings, its
 * directories, the class path), never the {@code Project}, so it can be serialized with the
 * task graph.
 */
final class EnhanceAction implements Action<Task> {
    /** How the action is listed among the task's actions. */
    static final String DISPLAY_NAME = "Enhance classes with TF";

    /** The annotation list's path inside the source set's resource output. */
    static final String RESOURCE_PATH = "META-INF/tf/tfannotations.properties";

    /** The name of one compile task's list in its list directory. */
    static final String LIST_FILE = "tfannotations.properties";

    private final TfExtension settings;
    private final Provider<Directory> listDir;
    private final Provider<Directory> cacheDir;
    private final FileCollection sourceSetClasspath;
    private final boolean warnUnusedFilters;
    private final FileCollection runtimeClasspath;

    /**
     * @param sourceSetClasspath the class path for a compile task that has none of its own to
     *     offer (one not derived from {@code AbstractCompile})
     * @param warnUnusedFilters whether a filter that selects nothing of this task's classes is
     *     worth a warning (filters are written for the main source set)
     * @param runtimeClasspath the class path the classes will run with, where tf-runtime must be
     */
    EnhanceAction(TfExtension settings, Provider<Directory> listDir, Provider<Directory> cacheDir,
            FileCollection sourceSetClasspath, boolean warnUnusedFilters, FileCollection runtimeClasspath) {
        this.runtimeClasspath = runtimeClasspath;
        this.warnUnusedFilters = warnUnusedFilters;
        this.settings = settings;
        this.listDir = listDir;
        this.cacheDir = cacheDir;
        this.sourceSetClasspath = sourceSetClasspath;
    }

    @Override
    public void execute(Task task) {
        File lists = listDir.get().getAsFile();
        // The directory is this plugin's alone: whatever an earlier run left there is stale.
        deleteRecursively(lists.toPath());
        if (settings.getSkip().get()) {
            task.getLogger().info("TF enhancement skipped (tf.skip = true)");
            return;
        }
        File classDir = CompileTasks.destinationDir(task);
        if (!classDir.isDirectory()) {
            task.getLogger().info("TF: {} wrote no classes", task.getPath());
            return;
        }
        Enhancement enhancement;
        try {
            enhancement = Enhancement.run(request(classDir, new File(lists, LIST_FILE), classpathOf(task)),
                    new GradleBuildLog(task.getLogger()));
        } catch (NativeCoreException e) {
            throw new GradleException("TF's native core failed while enhancing the classes of "
                    + task.getPath() + ": " + e.getMessage(), e);
        }
        if (enhancement.failure().isPresent()) {
            throw new GradleException(enhancement.failure().get());
        }
    }

    /**
     * The class path the compiler saw, where TF annotations defined elsewhere are found: for
     * Groovy and Scala it holds the Java classes compiled before them, for Java the Kotlin ones.
     * Read when the task runs: plugins set it after creating the task.
     */
    private FileCollection classpathOf(Task task) {
        return task instanceof AbstractCompile ? ((AbstractCompile) task).getClasspath() : sourceSetClasspath;
    }

    private EnhanceRequest request(File classDir, File resourceFile, FileCollection classpath) {
        return settings.toSettings()
                .requestFor(classDir.getAbsolutePath(), cacheDir.get().getAsFile().getAbsolutePath())
                .resourceFile(resourceFile.getAbsolutePath())
                .classpath(paths(classpath))
                .warnUnusedFilters(warnUnusedFilters)
                .runtimeClasspath(paths(runtimeClasspath))
                .build();
    }

    private static List<String> paths(FileCollection files) {
        List<String> paths = new ArrayList<>();
        for (File file : files.getFiles()) {
            paths.add(file.getAbsolutePath());
        }
        return paths;
    }

    private static void deleteRecursively(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
                Files.delete(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("TF could not clear its output directory " + root, e);
        }
    }
}
