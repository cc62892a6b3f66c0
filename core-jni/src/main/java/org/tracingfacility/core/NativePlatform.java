package org.tracingfacility.core;

import java.util.List;
import java.util.Locale;

/**
 * Names the platform directory under {@code META-INF/native/} that holds the library for the
 * running JVM. Only the platforms the jar actually carries resolve; any other fails here, with
 * both system properties in the message, rather than later with a missing resource.
 */
final class NativePlatform {
    /** The platform directories a TF jar carries. */
    static final List<String> SUPPORTED = List.of("linux-x86_64");

    private NativePlatform() {}

    /** The platform of this JVM, from {@code os.name} and {@code os.arch}. */
    static String current() {
        return resolve(System.getProperty("os.name"), System.getProperty("os.arch"));
    }

    /**
     * The platform directory for the given {@code os.name} and {@code os.arch} values.
     *
     * @throws UnsupportedOperationException if TF ships no native core for them
     */
    static String resolve(String osName, String osArch) {
        String os = osName == null ? "" : osName.trim().toLowerCase(Locale.ROOT);
        String arch = osArch == null ? "" : osArch.trim().toLowerCase(Locale.ROOT);
        // HotSpot reports "amd64" on Linux; other JVMs (and macOS) say "x86_64".
        boolean x86_64 = arch.equals("amd64") || arch.equals("x86_64");
        if (os.equals("linux") && x86_64) {
            return "linux-x86_64";
        }
        throw new UnsupportedOperationException("TF has no native core for this platform (os.name="
                + osName + ", os.arch=" + osArch + "); supported platforms: "
                + String.join(", ", SUPPORTED));
    }
}
