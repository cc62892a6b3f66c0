package org.tracingfacility.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a Gradle daemon or mvnd does: load the bridge again in a fresh class loader in the same
 * JVM. Each loader must get its own copy of the library, or the second load fails with
 * "already loaded in another classloader".
 */
class ClassLoaderIsolationTest {
    @TempDir
    Path work;

    @Test
    void eachClassLoaderLoadsAndCallsTheCore() throws Exception {
        Path classes = work.resolve("classes");
        JavaFixtures.compile(work, classes, JavaFixtures.ioGroup());
        URL[] bridge = {codeSource(TfCore.class)};

        // This test's own loader has the library too (loaded by earlier tests or here).
        assertTrue(TfCore.enhance(EnhanceRequest.builder(classes.toString()).build()).ok());
        try (URLClassLoader first = new URLClassLoader(bridge, ClassLoader.getPlatformClassLoader());
                URLClassLoader second = new URLClassLoader(bridge, ClassLoader.getPlatformClassLoader())) {
            Class<?> firstCore = first.loadClass(TfCore.class.getName());
            Class<?> secondCore = second.loadClass(TfCore.class.getName());
            assertNotSame(firstCore, secondCore);
            assertNotSame(TfCore.class, firstCore);

            assertEquals(List.of("com.example.IO", "com.example.IORead", "com.example.IOWrite"),
                    annotationsFoundThrough(first, classes));
            assertEquals(List.of("com.example.IO", "com.example.IORead", "com.example.IOWrite"),
                    annotationsFoundThrough(second, classes));
            assertEquals(TfCore.version(), firstCore.getMethod("version").invoke(null));
        }
    }

    /** {@code TfCore.enhance(EnhanceRequest.builder(dir).build()).annotations()} in {@code loader}. */
    private static Object annotationsFoundThrough(ClassLoader loader, Path classDir) throws Exception {
        Class<?> requestType = loader.loadClass(EnhanceRequest.class.getName());
        Object builder = requestType.getMethod("builder", String.class).invoke(null, classDir.toString());
        Object request = builder.getClass().getMethod("build").invoke(builder);
        Method enhance = loader.loadClass(TfCore.class.getName()).getMethod("enhance", requestType);
        Object report = enhance.invoke(null, request);
        assertEquals(true, report.getClass().getMethod("ok").invoke(report));
        return report.getClass().getMethod("annotations").invoke(report);
    }

    private static URL codeSource(Class<?> type) throws IOException {
        return type.getProtectionDomain().getCodeSource().getLocation();
    }
}
