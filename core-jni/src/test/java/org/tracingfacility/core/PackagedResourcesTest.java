package org.tracingfacility.core;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PackagedResourcesTest {
    /** Loaded from a jar of the test's own making; references nothing but Object. */
    public static final class Anchor {
    }

    private static final String ANCHOR_ENTRY = Anchor.class.getName().replace('.', '/') + ".class";

    @Test
    void readsWhatTheClassesJarCarriesAndNothingElse(@TempDir Path dir) throws Exception {
        Path jar = jar(dir.resolve("anchor.jar"), true, "META-INF/tf/packaged.txt", "in the jar");
        // A loader that shows no resource: what is found is read from the jar as a file.
        try (URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, null) {
            @Override
            public URL findResource(String name) {
                return null;
            }
        }) {
            Class<?> anchor = loader.loadClass(Anchor.class.getName());
            PackagedResources resources = PackagedResources.besides(anchor);
            assertArrayEquals("in the jar".getBytes(UTF_8), resources.read("META-INF/tf/packaged.txt"));
            assertTrue(resources.has("META-INF/tf/packaged.txt"));
            assertArrayEquals(bytesOf(ANCHOR_ENTRY), resources.read(ANCHOR_ENTRY));
            assertNull(resources.read("META-INF/tf/absent.txt"));
            assertFalse(resources.has("META-INF/tf/absent.txt"));
        }
    }

    @Test
    void findsOnTheClassPathWhatAnotherJarCarries(@TempDir Path dir) throws Exception {
        Path anchorJar = jar(dir.resolve("anchor.jar"), true, "META-INF/tf/other.txt", "unused");
        Path otherJar = jar(dir.resolve("other.jar"), false, "META-INF/tf/elsewhere.txt", "in the other jar");
        try (URLClassLoader loader = new URLClassLoader(
                new URL[] {anchorJar.toUri().toURL(), otherJar.toUri().toURL()}, null)) {
            PackagedResources resources = PackagedResources.besides(loader.loadClass(Anchor.class.getName()));
            assertArrayEquals("in the other jar".getBytes(UTF_8), resources.read("META-INF/tf/elsewhere.txt"));
            assertTrue(resources.has("META-INF/tf/elsewhere.txt"));
        }
    }

    @Test
    void readsBesideAClassLoadedFromADirectory() throws Exception {
        // The test classes themselves: a directory on the class path.
        PackagedResources resources = PackagedResources.besides(Anchor.class);
        assertArrayEquals(bytesOf(ANCHOR_ENTRY), resources.read(ANCHOR_ENTRY));
        assertNull(resources.read("META-INF/tf/absent.txt"));
    }

    /** A jar holding, if asked, {@link Anchor}'s class file, and one text entry. */
    private static Path jar(Path file, boolean withAnchor, String entry, String text) throws Exception {
        try (OutputStream out = Files.newOutputStream(file); JarOutputStream jar = new JarOutputStream(out)) {
            if (withAnchor) {
                jar.putNextEntry(new JarEntry(ANCHOR_ENTRY));
                jar.write(bytesOf(ANCHOR_ENTRY));
                jar.closeEntry();
            }
            jar.putNextEntry(new JarEntry(entry));
            jar.write(text.getBytes(UTF_8));
            jar.closeEntry();
        }
        return file;
    }

    private static byte[] bytesOf(String entry) throws Exception {
        try (InputStream in = PackagedResourcesTest.class.getClassLoader().getResourceAsStream(entry)) {
            return in.readAllBytes();
        }
    }
}
