package org.tracingfacility.gradle;

import org.gradle.api.DefaultTask;
import org.gradle.api.file.DirectoryProperty;
import org.gradle.api.tasks.OutputDirectory;

/**
 * Shaped like the Kotlin Gradle plugin's compile task since its rework (1.7 on): not an
 * {@code AbstractCompile}, its class directory a {@code getDestinationDirectory()} property.
 * The plugin must find such a task by name and read that property without knowing its class.
 */
public abstract class KotlinStyleCompile extends DefaultTask {
    @OutputDirectory
    public abstract DirectoryProperty getDestinationDirectory();
}
