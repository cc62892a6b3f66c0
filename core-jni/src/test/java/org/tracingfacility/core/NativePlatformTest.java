package org.tracingfacility.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The test class path carries, besides this machine's library, a stand-in for a platform no
 * machine here can build ({@code linux-tfmadeup}, in {@code src/test/resources}) laid out as a
 * release build packages one: the loader must pick it on that platform as it would a real one.
 */
class NativePlatformTest {
    private static final String MADE_UP = "linux-tfmadeup";

    @Test
    void linuxOnX86_64UnderEitherArchitectureName() {
        assertEquals("linux-x86_64", NativePlatform.resolve("Linux", "amd64"));
        assertEquals("linux-x86_64", NativePlatform.resolve("Linux", "x86_64"));
    }

    @Test
    void theJvmsNamesBecomeTheReleaseBuildsDirectoryNames() {
        assertEquals("macos-aarch64", NativePlatform.id("Mac OS X", "aarch64"));
        assertEquals("macos-x86_64", NativePlatform.id("Mac OS X", "x86_64"));
        assertEquals("windows-x86_64", NativePlatform.id("Windows 11", "amd64"));
        assertEquals("linux-aarch64", NativePlatform.id("Linux", "arm64"));
        assertEquals("libtf_core.dylib", NativePlatform.libraryFile("macos-aarch64"));
        assertEquals("tf_core.dll", NativePlatform.libraryFile("windows-x86_64"));
        assertEquals("libtf_core.so", NativePlatform.libraryFile("linux-aarch64"));
    }

    @Test
    void theRunningJvmResolvesToAPlatformTheJarCarries() {
        assertTrue(NativePlatform.carried().contains(NativePlatform.current()), NativePlatform.carried()::toString);
        assertTrue(NativeLibrary.class.getResource(NativeLibrary.resourceFor(NativePlatform.current())) != null);
    }

    @Test
    void aSecondPlatformsLibraryIsPickedAndExtractedOnThatPlatform(@TempDir Path cache) throws Exception {
        assertEquals(MADE_UP, NativePlatform.resolve("Linux", "tfmadeup"));
        assertEquals(List.of("linux-tfmadeup", "linux-x86_64"), List.copyOf(NativePlatform.carried()));

        String resource = NativeLibrary.resourceFor(MADE_UP);
        Path extracted = NativeLibrary.extract(cache, resource, NativeLibrary.recordedSha256(resource));

        try (InputStream packaged = NativeLibrary.class.getResourceAsStream(resource)) {
            assertArrayEquals(packaged.readAllBytes(), Files.readAllBytes(extracted));
        }
    }

    @Test
    void anUnsupportedPlatformSaysWhatTheUserCanDo() {
        UnsupportedOperationException mac = assertThrows(UnsupportedOperationException.class,
                () -> NativePlatform.resolve("Mac OS X", "aarch64"));
        String message = mac.getMessage();
        assertTrue(message.contains("os.name=Mac OS X, os.arch=aarch64"), message);
        assertTrue(message.contains("looked for /META-INF/native/macos-aarch64/libtf_core.dylib"), message);
        assertTrue(message.contains("this TF build carries: linux-tfmadeup, linux-x86_64."), message);
        assertTrue(message.contains("skip it (Maven: -Dtf.skip=true; Gradle: tf { skip = true })"), message);
        assertTrue(message.contains("from a release that includes it, or from building TF on macos-aarch64"), message);

        assertThrows(UnsupportedOperationException.class, () -> NativePlatform.resolve("Linux", "aarch64"));
        assertThrows(UnsupportedOperationException.class, () -> NativePlatform.resolve("Windows 11", "amd64"));
    }
}
