package org.tracingfacility.gradle;

import java.io.File;
import java.util.concurrent.Callable;
import org.gradle.api.Action;
import org.gradle.api.DomainObjectCollection;
import org.gradle.api.Project;
import org.gradle.api.Task;
import org.gradle.api.plugins.JavaPluginConvention;
import org.gradle.api.plugins.JavaPluginExtension;
import org.gradle.api.provider.Provider;
import org.gradle.api.tasks.SourceSetContainer;
import org.gradle.api.tasks.TaskContainer;
import org.gradle.api.tasks.compile.AbstractCompile;
import org.gradle.util.GradleVersion;

/**
 * The one place that knows Gradle versions differ.
 *
 * <p>The plugin is compiled against the Gradle 8 API and uses it wherever the running Gradle
 * has it. The only Gradle these machines can install is Debian's 4.4.1, which lacks lazy task
 * configuration (4.9), {@code getDestinationDirectory()} (6.1), the source sets on
 * {@code JavaPluginExtension} (7.1) and Provider-valued task inputs; each such call here picks
 * the API by version. Calls to APIs that newer Gradle removed ({@code getDestinationDir()} and
 * the {@code Convention} objects are gone in Gradle 9) live in {@link Legacy}, a class the JVM
 * only loads when an old Gradle runs the plugin.
 */
final class GradleCompat {
    private static final GradleVersion RUNNING = GradleVersion.current().getBaseVersion();
    private static final boolean LAZY_TASK_API = atLeast("4.9");
    private static final boolean PROVIDER_TASK_INPUTS = atLeast("5.0");
    private static final boolean DESTINATION_DIRECTORY_PROPERTY = atLeast("6.1");
    private static final boolean SOURCE_SETS_ON_JAVA_EXTENSION = atLeast("7.1");

    private GradleCompat() {}

    private static boolean atLeast(String version) {
        return RUNNING.compareTo(GradleVersion.version(version)) >= 0;
    }

    /** The source sets of a project that has the {@code java} plugin. */
    static SourceSetContainer sourceSets(Project project) {
        if (SOURCE_SETS_ON_JAVA_EXTENSION) {
            return project.getExtensions().getByType(JavaPluginExtension.class).getSourceSets();
        }
        return Legacy.sourceSets(project);
    }

    /** Runs {@code action} on every element, present and future, without creating any eagerly. */
    static <T> void configureEach(DomainObjectCollection<T> elements, Action<? super T> action) {
        if (LAZY_TASK_API) {
            elements.configureEach(action);
        } else {
            elements.all(action);
        }
    }

    /** Configures the task {@code name} when (and only if) the build creates it. */
    static void configureTask(TaskContainer tasks, String name, Action<? super Task> action) {
        if (LAZY_TASK_API) {
            tasks.named(name).configure(action);
        } else {
            action.execute(tasks.getByName(name));
        }
    }

    /** Declares a task input whose value is read when Gradle fingerprints the task. */
    static void inputProperty(Task task, String name, Provider<?> value) {
        if (PROVIDER_TASK_INPUTS) {
            task.getInputs().property(name, value);
        } else {
            // Older Gradle stores the Provider object itself; a Callable it does unpack.
            task.getInputs().property(name, (Callable<Object>) value::getOrNull);
        }
    }

    /** Where a compile task derived from {@link AbstractCompile} writes its classes. */
    static File destinationDir(AbstractCompile compile) {
        if (DESTINATION_DIRECTORY_PROPERTY) {
            return compile.getDestinationDirectory().get().getAsFile();
        }
        return Legacy.destinationDir(compile);
    }

    /** Registers a task of {@code type}, created only when the build needs it where Gradle can wait. */
    static <T extends Task> void registerTask(TaskContainer tasks, String name, Class<T> type,
            Action<? super T> configuration) {
        if (LAZY_TASK_API) {
            tasks.register(name, type, configuration);
        } else {
            tasks.create(name, type, configuration);
        }
    }

    /** Calls of APIs that Gradle 8 deprecates and Gradle 9 removes; loaded only on old Gradle. */
    @SuppressWarnings("deprecation")
    private static final class Legacy {
        static SourceSetContainer sourceSets(Project project) {
            return project.getConvention().getPlugin(JavaPluginConvention.class).getSourceSets();
        }

        static File destinationDir(AbstractCompile compile) {
            return compile.getDestinationDir();
        }
    }
}
