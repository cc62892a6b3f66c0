package org.tracingfacility.gradle;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SortedSet;
import org.gradle.api.DefaultTask;
import org.gradle.api.GradleException;
import org.gradle.api.file.ConfigurableFileCollection;
import org.gradle.api.file.Directory;
import org.gradle.api.provider.Provider;
import org.gradle.api.tasks.InputFiles;
import org.gradle.api.tasks.OutputDirectory;
import org.gradle.api.tasks.PathSensitive;
import org.gradle.api.tasks.PathSensitivity;
import org.gradle.api.tasks.TaskAction;

/**
 * Writes a source set's one TF annotation list: the union of the lists its compile tasks'
 * enhancement wrote (Java, Kotlin, Groovy, Scala each enhance their own class directory, and
 * each finds the TF annotations defined there). Its output directory is part of the source
 * set's output, so the list reaches the jar and the run time class path once.
 *
 * <p>No list at all (TF skipped, or no compile task ran TF) gives no file: an empty directory.
 * The same lists always give the same bytes.
 */
public class TfAnnotationListTask extends DefaultTask {
    private final ConfigurableFileCollection compileTaskLists = getProject().files();
    private Provider<Directory> outputDirectory;

    /** The lists the source set's compile tasks wrote; a task that did not run TF has none. */
    @InputFiles
    @PathSensitive(PathSensitivity.NONE)
    public ConfigurableFileCollection getCompileTaskLists() {
        return compileTaskLists;
    }

    /** Holds {@code META-INF/tf/tfannotations.properties}, the merged list, and nothing else. */
    @OutputDirectory
    public File getOutputDirectory() {
        return outputDirectory.get().getAsFile();
    }

    void setOutputDirectory(Provider<Directory> directory) {
        outputDirectory = directory;
    }

    /** Writes the union of the lists, each annotation once, in a stable order. */
    @TaskAction
    public void writeUnion() {
        Path output = getOutputDirectory().toPath();
        Path list = output.resolve(EnhanceAction.RESOURCE_PATH);
        SortedSet<String> names = AnnotationListFile.emptyNames();
        boolean anyList = false;
        for (File file : compileTaskLists.getFiles()) {
            if (!file.isFile()) {
                continue;
            }
            anyList = true;
            try {
                names.addAll(AnnotationListFile.read(file.toPath()));
            } catch (IOException e) {
                throw new GradleException("TF could not read the annotation list " + file + ": " + e.getMessage(), e);
            }
        }
        try {
            if (!anyList) {
                Files.deleteIfExists(list);
                return;
            }
            byte[] bytes = AnnotationListFile.render(names);
            // An unchanged list keeps its modification time.
            if (Files.isRegularFile(list) && Arrays.equals(bytes, Files.readAllBytes(list))) {
                return;
            }
            Files.createDirectories(list.getParent());
            Files.write(list, bytes);
        } catch (IOException e) {
            throw new UncheckedIOException("TF could not write " + list, e);
        }
    }
}
