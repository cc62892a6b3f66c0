package org.tracingfacility.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class NativePlatformTest {
    @Test
    void linuxOnX86_64UnderEitherArchitectureName() {
        assertEquals("linux-x86_64", NativePlatform.resolve("Linux", "amd64"));
        assertEquals("linux-x86_64", NativePlatform.resolve("Linux", "x86_64"));
    }

    @Test
    void theRunningJvmResolvesToAPlatformTheJarCarries() {
        assertTrue(NativePlatform.SUPPORTED.contains(NativePlatform.current()));
        assertTrue(NativeLibrary.class.getResource(NativeLibrary.resourceFor(NativePlatform.current())) != null);
    }

    @Test
    void anUnsupportedPlatformIsNamedWithTheSupportedList() {
        UnsupportedOperationException mac = assertThrows(UnsupportedOperationException.class,
                () -> NativePlatform.resolve("Mac OS X", "aarch64"));
        assertTrue(mac.getMessage().contains("os.name=Mac OS X"), mac.getMessage());
        assertTrue(mac.getMessage().contains("os.arch=aarch64"), mac.getMessage());
        assertTrue(mac.getMessage().contains("supported platforms: linux-x86_64"), mac.getMessage());

        assertThrows(UnsupportedOperationException.class, () -> NativePlatform.resolve("Linux", "aarch64"));
        assertThrows(UnsupportedOperationException.class, () -> NativePlatform.resolve("Windows 11", "amd64"));
    }
}
