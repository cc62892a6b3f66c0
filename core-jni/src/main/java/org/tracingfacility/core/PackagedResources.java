package org.tracingfacility.core;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.CodeSource;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Reads the resources TF packages beside its own classes (the native library, its digest,
 * the version file; the agent's warm-up class) from the jar or directory that holds a given
 * class, opened as a file. The usual way, {@code Class.getResource} and a URL connection,
 * first loads and runs the JDK's whole {@code jar:} URL machinery (a dozen classes,
 * interpreted this early): some ten milliseconds of the agent's start-up for three small
 * entries. A resource that is not beside the class (another jar on the class path carries it)
 * is still found the usual way.
 *
 * <p>Each read opens the jar and closes it again, as the URL connections did with caches off:
 * no file handle outlives the read, so a build daemon never reads a jar replaced since. (The
 * JDK shares the parsed directory of a jar its class loader holds open, so the open is cheap.)
 */
public final class PackagedResources {
    private final Class<?> anchor;
    /** The jar or directory holding {@link #anchor}, or null when it cannot be told. */
    private final Path home;

    private PackagedResources(Class<?> anchor, Path home) {
        this.anchor = anchor;
        this.home = home;
    }

    /** The resources packaged with {@code anchor}, in the jar or directory it was loaded from. */
    public static PackagedResources besides(Class<?> anchor) {
        return new PackagedResources(anchor, homeOf(anchor));
    }

    /**
     * The bytes of an absolute resource name ({@code META-INF/…}, no leading slash), or null
     * when neither the class's jar nor its class loader has it.
     */
    public byte[] read(String name) throws IOException {
        if (home != null) {
            byte[] bytes = Files.isDirectory(home) ? readFile(home.resolve(name)) : readEntry(home, name);
            if (bytes != null) {
                return bytes;
            }
        }
        URL url = anchor.getResource("/" + name);
        if (url == null) {
            return null;
        }
        URLConnection connection = url.openConnection();
        connection.setUseCaches(false); // no JarFile outlives the read, as above
        try (InputStream in = connection.getInputStream()) {
            return in.readAllBytes();
        }
    }

    /** Whether {@link #read} would find {@code name}, without reading it. */
    public boolean has(String name) {
        if (home != null) {
            if (Files.isDirectory(home)) {
                if (Files.isRegularFile(home.resolve(name))) {
                    return true;
                }
            } else {
                try (ZipFile jar = new ZipFile(home.toFile())) {
                    if (jar.getEntry(name) != null) {
                        return true;
                    }
                } catch (IOException e) {
                    // Not a jar we can read: asked of the class loader below.
                }
            }
        }
        return anchor.getResource("/" + name) != null;
    }

    private static byte[] readFile(Path file) throws IOException {
        try {
            return Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    private static byte[] readEntry(Path jarFile, String name) throws IOException {
        try (ZipFile jar = new ZipFile(jarFile.toFile())) {
            ZipEntry entry = jar.getEntry(name);
            if (entry == null) {
                return null;
            }
            try (InputStream in = jar.getInputStream(entry)) {
                return in.readAllBytes();
            }
        }
    }

    /** Where the class was loaded from, if that is a local jar or directory. */
    private static Path homeOf(Class<?> anchor) {
        try {
            CodeSource source = anchor.getProtectionDomain().getCodeSource();
            URL location = source == null ? null : source.getLocation();
            if (location == null || !"file".equals(location.getProtocol())) {
                return null;
            }
            return Paths.get(location.toURI());
        } catch (URISyntaxException | RuntimeException e) {
            return null; // a location that is no path: the class loader answers
        }
    }
}
