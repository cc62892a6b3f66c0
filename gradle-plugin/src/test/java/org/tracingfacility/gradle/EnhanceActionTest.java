package org.tracingfacility.gradle;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.gradle.api.Action;
import org.gradle.api.Describable;
import org.gradle.api.GradleException;
import org.gradle.api.Project;
import org.gradle.api.Task;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the action the plugin added to {@code compileJava} on classes javac really compiled,
 * through the real native core.
 */
class EnhanceActionTest {
    private static final Map<String, String> SOURCES = Map.of(
            "fixture/Traced.java",
            "package fixture;\n"
                    + "import java.lang.annotation.*;\n"
                    + "@Retention(RetentionPolicy.RUNTIME) @Target({ElementType.TYPE, ElementType.METHOD})\n"
                    + "@org.tracingfacility.annotation.MethodMonitorGroup\n"
                    + "public @interface Traced {}\n",
            "fixture/Service.java",
            "package fixture;\n"
                    + "@Traced public class Service {\n"
                    + "    @Traced public int work(int x) { return x + 1; }\n"
                    + "}\n");

    @TempDir
    Path projectDir;

    private Project project;
    private Task compileJava;
    private Path classDir;
    private Path annotationList;

    @BeforeEach
    void compileFixtureIntoCompileJavasOutput() throws IOException {
        project = TestProjects.javaProjectWithTf(projectDir);
        project.getDependencies().add("implementation", project.files(Javac.runtimeLocation()));
        compileJava = project.getTasks().getByName("compileJava");
        classDir = CompileTasks.destinationDir(compileJava).toPath();
        annotationList = project.getLayout().getBuildDirectory()
                .dir(TfPlugin.LISTS_DIR + "compileJava").get().getAsFile().toPath()
                .resolve(EnhanceAction.LIST_FILE);
        Javac.compile(projectDir, SOURCES, classDir);
    }

    @Test
    void writesTheAnnotationListIntoThePluginsOwnDirectory() throws IOException {
        enhance();

        Properties list = load(annotationList);
        assertEquals("1", list.getProperty("org.tracingfacility.tf.annotations.size"));
        assertEquals("fixture.Traced", list.getProperty("org.tracingfacility.tf.annotation.1"));
        assertFalse(Files.exists(classDir.resolve(EnhanceAction.RESOURCE_PATH)),
                "nothing is written into javac's output besides the classes");
        String service = new String(Files.readAllBytes(classDir.resolve("fixture/Service.class")),
                java.nio.charset.StandardCharsets.ISO_8859_1);
        assertTrue(service.contains("Lorg/tracingfacility/annotation/TFEnhanced;"), "Service was enhanced in place");
    }

    @Test
    void theSourceSetsMergedListOfOneCompileTaskIsTheCoresListByteForByte() throws IOException {
        enhance();
        TfAnnotationListTask merge = (TfAnnotationListTask) project.getTasks().getByName("tfAnnotationList");

        merge.writeUnion();

        Path merged = merge.getOutputDirectory().toPath().resolve(EnhanceAction.RESOURCE_PATH);
        assertArrayEquals(Files.readAllBytes(annotationList), Files.readAllBytes(merged));
    }

    @Test
    void skipLeavesClassesAloneAndClearsWhatAnEarlierRunWrote() throws IOException {
        enhance();
        assertTrue(Files.exists(annotationList));
        byte[] service = Files.readAllBytes(classDir.resolve("fixture/Service.class"));

        project.getExtensions().getByType(TfExtension.class).getSkip().set(true);
        enhance();

        assertFalse(Files.exists(annotationList), "a stale annotation list would reach the jar");
        assertArrayEquals(service, Files.readAllBytes(classDir.resolve("fixture/Service.class")));
    }

    @Test
    void aDryRunWritesNothingNotEvenTheCache() throws IOException {
        byte[] service = Files.readAllBytes(classDir.resolve("fixture/Service.class"));
        project.getExtensions().getByType(TfExtension.class).getDryRun().set(true);

        enhance();

        assertArrayEquals(service, Files.readAllBytes(classDir.resolve("fixture/Service.class")));
        assertFalse(Files.exists(annotationList));
        assertFalse(Files.exists(cacheDir()));
    }

    @Test
    void useCacheFalseEnhancesWithoutACache() throws IOException {
        project.getExtensions().getByType(TfExtension.class).getUseCache().set(false);

        enhance();

        assertTrue(Files.exists(annotationList));
        assertFalse(Files.exists(cacheDir()));
        enhance();
        assertTrue(Files.exists(annotationList), "a second run without a cache lists the same");
    }

    @Test
    void theCacheIsKeptByDefault() throws IOException {
        enhance();

        assertTrue(Files.isDirectory(cacheDir()));
    }

    private Path cacheDir() {
        return project.getLayout().getBuildDirectory().dir(TfPlugin.CACHE_DIR + "compileJava").get().getAsFile().toPath();
    }

    @Test
    void aCorruptClassFailsTheTaskNamingTheFile() throws IOException {
        Files.write(classDir.resolve("fixture/Broken.class"), new byte[] {(byte) 0xCA, (byte) 0xFE, 0, 1});

        GradleException failure = assertThrows(GradleException.class, this::enhance);

        assertTrue(failure.getMessage().contains(classDir.resolve("fixture/Broken.class").toString()),
                failure.getMessage());
    }

    @Test
    void failOnErrorFalseOnlyWarnsAndEnhancesEveryOtherClass() throws IOException {
        Files.write(classDir.resolve("fixture/Broken.class"), new byte[] {(byte) 0xCA, (byte) 0xFE, 0, 1});
        project.getExtensions().getByType(TfExtension.class).getFailOnError().set(false);

        enhance();

        assertTrue(Files.exists(annotationList), "the run goes on without the broken class");
        String service = new String(Files.readAllBytes(classDir.resolve("fixture/Service.class")),
                java.nio.charset.StandardCharsets.ISO_8859_1);
        assertTrue(service.contains("Lorg/tracingfacility/annotation/TFEnhanced;"), "Service was enhanced");
        assertArrayEquals(new byte[] {(byte) 0xCA, (byte) 0xFE, 0, 1},
                Files.readAllBytes(classDir.resolve("fixture/Broken.class")), "the broken class is left as it was");
    }

    /** Runs the action exactly as the plugin added it to the task. */
    private void enhance() {
        for (Action<? super Task> action : compileJava.getActions()) {
            if (action instanceof Describable
                    && ((Describable) action).getDisplayName().contains(EnhanceAction.DISPLAY_NAME)) {
                action.execute(compileJava);
                return;
            }
        }
        throw new AssertionError("compileJava has no TF action: " + compileJava.getActions());
    }

    private static Properties load(Path file) throws IOException {
        Properties properties = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            properties.load(in);
        }
        return properties;
    }
}
