package org.tracingfacility.core;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.net.URLConnection;
import java.nio.charset.StandardCharsets;
import java.util.Enumeration;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * Names the platform directory under {@code META-INF/native/} that holds the library for the
 * running JVM: {@code <os>-<arch>}, such as {@code linux-x86_64}, {@code macos-aarch64} or
 * {@code windows-x86_64}. A jar carries any number of them (the build packages every directory
 * a release build filled, README "Platforms"), each listed in {@value #PLATFORMS_LIST}. A
 * platform without its library fails here, saying what the user can do, rather than later
 * with a missing resource.
 */
final class NativePlatform {
    /** Lists the platform directories a jar carries, one a line; every jar on the class path adds its own. */
    static final String PLATFORMS_LIST = "META-INF/native/platforms.list";

    private NativePlatform() {}

    /** The platform of this JVM, from {@code os.name} and {@code os.arch}. */
    static String current() {
        return resolve(System.getProperty("os.name"), System.getProperty("os.arch"));
    }

    /**
     * The platform directory for the given {@code os.name} and {@code os.arch} values, if a jar
     * on this class's class path carries a library for it.
     *
     * @throws UnsupportedOperationException if none does
     */
    static String resolve(String osName, String osArch) {
        String platform = id(osName, osArch);
        String resource = NativeLibrary.resourceFor(platform);
        if (NativeLibrary.carries(resource)) {
            return platform;
        }
        throw new UnsupportedOperationException("TF has no native core for this platform (os.name=" + osName
                + ", os.arch=" + osArch + ", looked for " + resource + "); this TF build carries: "
                + String.join(", ", carried()) + ". To build without TF here, skip it (Maven: -Dtf.skip=true;"
                + " Gradle: tf { skip = true }). A TF build for " + platform + " comes from a release that"
                + " includes it, or from building TF on " + platform + " (see \"Platforms\" in TF's README).");
    }

    /** {@code <os>-<arch>} in the names release builds use, whatever the JVM calls them. */
    static String id(String osName, String osArch) {
        String os = osName == null ? "" : osName.trim().toLowerCase(Locale.ROOT);
        String arch = osArch == null ? "" : osArch.trim().toLowerCase(Locale.ROOT);
        if (os.startsWith("mac") || os.equals("darwin")) {
            os = "macos";
        } else if (os.startsWith("windows")) {
            os = "windows";
        } else {
            os = keepOnly(os, "");
        }
        // HotSpot reports "amd64" on Linux and Windows, "x86_64" on macOS; "arm64" is aarch64.
        switch (arch) {
            case "amd64":
            case "x86_64":
                arch = "x86_64";
                break;
            case "arm64":
            case "aarch64":
                arch = "aarch64";
                break;
            default:
                arch = keepOnly(arch, "_");
        }
        return os + "-" + arch;
    }

    /**
     * {@code text}'s ASCII lower-case letters, digits and {@code also} characters. By hand: a
     * regular expression here costs the agent's start-up a few milliseconds.
     */
    private static String keepOnly(String text, String also) {
        StringBuilder kept = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || also.indexOf(c) >= 0) {
                kept.append(c);
            }
        }
        return kept.toString();
    }

    /** The library's file name on a platform, as each OS's linker names it. */
    static String libraryFile(String platform) {
        if (platform.startsWith("windows-")) {
            return "tf_core.dll";
        }
        if (platform.startsWith("macos-")) {
            return "libtf_core.dylib";
        }
        return "libtf_core.so";
    }

    /** The platforms the jars on this class's class path list as carried, sorted. */
    static Set<String> carried() {
        Set<String> platforms = new TreeSet<>();
        try {
            Enumeration<URL> lists = NativePlatform.class.getClassLoader().getResources(PLATFORMS_LIST);
            while (lists.hasMoreElements()) {
                URLConnection connection = lists.nextElement().openConnection();
                connection.setUseCaches(false); // as NativeLibrary: no JarFile outlives the loader
                try (InputStream in = connection.getInputStream()) {
                    new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().map(String::trim)
                            .filter(line -> !line.isEmpty()).forEach(platforms::add);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("TF could not read " + PLATFORMS_LIST, e);
        }
        return platforms;
    }
}
