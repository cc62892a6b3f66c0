package org.tracingfacility.gradle;

import java.io.File;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.gradle.api.GradleException;
import org.gradle.api.Task;
import org.gradle.api.file.Directory;
import org.gradle.api.provider.Provider;
import org.gradle.api.tasks.SourceSet;
import org.gradle.api.tasks.SourceSetContainer;
import org.gradle.api.tasks.compile.AbstractCompile;

/**
 * The JVM compile tasks of a source set, found by Gradle's naming convention rather than by
 * their classes: {@code compileJava}, {@code compileGroovy} (groovy plugin),
 * {@code compileScala} (scala plugin) and {@code compileKotlin} (Kotlin JVM plugin), and their
 * {@code compile<SourceSet><Language>} forms. No class of the Groovy, Scala or Kotlin plugins is
 * referenced, so the TF plugin works with whichever versions of them a build applies, and with
 * none.
 */
final class CompileTasks {
    /** The languages whose compile task writes class files into a directory of its own. */
    static final List<String> LANGUAGES = Arrays.asList("java", "groovy", "scala", "kotlin");

    private CompileTasks() {}

    /** The names the compile tasks of {@code sourceSet} have, whether or not they exist. */
    static List<String> namesOf(SourceSet sourceSet) {
        List<String> names = new ArrayList<>();
        for (String language : LANGUAGES) {
            names.add(sourceSet.getCompileTaskName(language));
        }
        return names;
    }

    /** The source set that {@code task} compiles, if it is one of the JVM compile tasks. */
    static Optional<SourceSet> sourceSetCompiledBy(Task task, SourceSetContainer sourceSets) {
        for (SourceSet sourceSet : sourceSets) {
            if (namesOf(sourceSet).contains(task.getName())) {
                return writesClassDirectory(task) ? Optional.of(sourceSet) : Optional.empty();
            }
        }
        return Optional.empty();
    }

    /**
     * Whether the task has a class output directory TF knows how to read: an
     * {@link AbstractCompile} (Java, Groovy, Scala, and Kotlin before 1.7's rework), or a task
     * with a {@code getDestinationDirectory()} property (the Kotlin compile task of today).
     */
    static boolean writesClassDirectory(Task task) {
        return task instanceof AbstractCompile || destinationDirectoryGetter(task).isPresent();
    }

    /** Where a compile task writes its classes; read when the task runs. */
    static File destinationDir(Task task) {
        if (task instanceof AbstractCompile) {
            return GradleCompat.destinationDir((AbstractCompile) task);
        }
        Method getter = destinationDirectoryGetter(task).orElseThrow(() -> new GradleException(
                "TF can only enhance the output of a compile task, not of " + task.getPath()
                        + " (" + task.getClass().getName() + ")"));
        try {
            Provider<?> directory = (Provider<?>) getter.invoke(task);
            return ((Directory) directory.get()).getAsFile();
        } catch (IllegalAccessException | InvocationTargetException | ClassCastException e) {
            throw new GradleException("TF could not read the class output directory of " + task.getPath()
                    + " (" + task.getClass().getName() + ".getDestinationDirectory()): " + e, e);
        }
    }

    private static Optional<Method> destinationDirectoryGetter(Task task) {
        try {
            Method getter = task.getClass().getMethod("getDestinationDirectory");
            return Provider.class.isAssignableFrom(getter.getReturnType()) ? Optional.of(getter) : Optional.empty();
        } catch (NoSuchMethodException e) {
            return Optional.empty();
        }
    }
}
