package org.tracingfacility.core;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Locale;
import java.util.Properties;

/**
 * Loads {@code libtf_core} from this jar into the class loader that loaded this class.
 *
 * <p>The library is extracted once per version and content into
 * {@code <root>/<version>/<sha256>/libtf_core.so} (the platform's library name; root: system property {@value
 * #CACHE_ROOT_PROPERTY}, else {@code ~/.cache/tracingfacility/native}; not {@code /tmp},
 * which may be {@code noexec}), under a file lock, through a temporary file renamed into place.
 * Every byte that is loaded is first checked against the SHA-256 recorded at build time, or
 * comes from a file that has not changed since it was (see {@link VerifiedStamp}).
 *
 * <p>A native library can be bound to one class loader only, and build daemons (Gradle, mvnd,
 * Maven's plugin realms) load the plugin again in new class loaders. So each class loader
 * loads its own copy of the extracted file, and deletes it at once: Linux keeps the mapping.
 */
final class NativeLibrary {
    /** Overrides the root of the extraction directory. */
    static final String CACHE_ROOT_PROPERTY = "tf.native.dir";
    /** The library's file name on Linux ({@link NativePlatform#libraryFile} for the others). */
    static final String LIBRARY_FILE = "libtf_core.so";

    private static final String RESOURCE_DIR = "/META-INF/native/";
    private static final String VERSION_RESOURCE = RESOURCE_DIR + "tf-core-jni.properties";
    private static final String LOCK_FILE = ".lock";
    /** Read from this jar as a file: no {@code jar:} URL machinery at the agent's start. */
    private static final PackagedResources PACKAGED = PackagedResources.besides(NativeLibrary.class);

    private NativeLibrary() {}

    /** Extracts (if needed), verifies and loads the library for this JVM's platform. */
    static void load() {
        String resource = resourceFor(NativePlatform.current());
        try {
            String sha256 = recordedSha256(resource);
            Path directory = extractionDirectory(sha256);
            Path extracted = extract(directory, resource, sha256);
            loadPrivateCopy(extracted, sha256);
        } catch (IOException e) {
            throw new NativeCoreException("TF could not extract its native core: " + e, e);
        }
    }

    /**
     * The directory this jar's library for this platform is extracted to, found without
     * extracting or loading it.
     *
     * @throws NativeCoreException when the jar carries no library for this platform
     */
    static Path extractionDirectory() {
        String resource = resourceFor(NativePlatform.current());
        try {
            return extractionDirectory(recordedSha256(resource));
        } catch (IOException e) {
            throw new NativeCoreException("TF could not find its native core: " + e, e);
        }
    }

    private static Path extractionDirectory(String sha256) throws IOException {
        return cacheRoot().resolve(version()).resolve(sha256);
    }

    /** The library's resource path for a platform directory. */
    static String resourceFor(String platform) {
        return RESOURCE_DIR + platform + "/" + NativePlatform.libraryFile(platform);
    }

    /**
     * Makes sure {@code directory/libtf_core.so} holds the packaged library, writing it under
     * the directory's lock if it is absent.
     *
     * @return the extracted file
     */
    static Path extract(Path directory, String resource, String sha256) throws IOException {
        Files.createDirectories(directory);
        Path target = directory.resolve(resource.substring(resource.lastIndexOf('/') + 1));
        try (FileChannel channel = FileChannel.open(directory.resolve(LOCK_FILE),
                StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            FileLock lock = lock(channel);
            try {
                if (!Files.exists(target)) {
                    byte[] bytes = readResource(resource);
                    verify(bytes, sha256, "the library packaged in the TF jar (" + resource + ")");
                    writeAtomically(target, bytes);
                }
            } finally {
                lock.release();
            }
        }
        return target;
    }

    /** Loads a private copy of {@code extracted} into this class's loader, after checking its bytes. */
    static void loadPrivateCopy(Path extracted, String sha256) throws IOException {
        byte[] bytes = Files.readAllBytes(extracted);
        // Checked after the read: a stamp that still matches means no write came before it.
        if (!VerifiedStamp.matches(extracted)) {
            verify(bytes, sha256, extracted + " (delete it to have it extracted again)");
            VerifiedStamp.record(extracted, System.currentTimeMillis());
        }
        String name = extracted.getFileName().toString();
        int dot = name.lastIndexOf('.');
        Path copy = Files.createTempFile(extracted.getParent(), name.substring(0, dot) + "-", name.substring(dot));
        try {
            Files.write(copy, bytes);
            NativeAccessNotice.beforeLoad(NativeLibrary.class.getModule(), System.err);
            System.load(copy.toAbsolutePath().toString());
        } finally {
            Files.deleteIfExists(copy);
        }
    }

    /**
     * Checks {@code bytes} against the SHA-256 recorded at build time.
     *
     * @throws NativeCoreException naming {@code what} and both hashes on a mismatch
     */
    static void verify(byte[] bytes, String expectedSha256, String what) {
        String actual = sha256(bytes);
        if (!actual.equalsIgnoreCase(expectedSha256)) {
            throw new NativeCoreException("TF native core: the SHA-256 of " + what
                    + " does not match the one recorded at build time (expected "
                    + expectedSha256 + ", found " + actual + "); refusing to load it");
        }
    }

    static String sha256(byte[] bytes) {
        try {
            StringBuilder hex = new StringBuilder(64);
            for (byte b : MessageDigest.getInstance("SHA-256").digest(bytes)) {
                hex.append(Character.forDigit((b >> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
            }
            return hex.toString();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform provides SHA-256", e);
        }
    }

    private static Path cacheRoot() {
        String configured = System.getProperty(CACHE_ROOT_PROPERTY);
        if (configured != null && !configured.isBlank()) {
            return Paths.get(configured);
        }
        return Paths.get(System.getProperty("user.home"), ".cache", "tracingfacility", "native");
    }

    private static String version() throws IOException {
        Properties properties = new Properties();
        properties.load(new ByteArrayInputStream(readResource(VERSION_RESOURCE)));
        String version = properties.getProperty("version", "").trim();
        if (version.isEmpty()) {
            throw new IOException(VERSION_RESOURCE + " names no version");
        }
        return version;
    }

    /** The hex digest the build wrote beside the library (Ant's checksum format: the digest first). */
    static String recordedSha256(String resource) throws IOException {
        String text = new String(readResource(resource + ".sha256"), StandardCharsets.US_ASCII).trim();
        int end = 0;
        while (end < text.length() && !Character.isWhitespace(text.charAt(end))) {
            end++;
        }
        String digest = text.substring(0, end);
        if (!isSha256Hex(digest)) {
            throw new IOException(resource + ".sha256 holds no SHA-256 digest");
        }
        return digest.toLowerCase(Locale.ROOT);
    }

    /** 64 hex digits; checked by hand, as regular expressions cost the agent's start-up. */
    private static boolean isSha256Hex(String text) {
        if (text.length() != 64) {
            return false;
        }
        for (int i = 0; i < text.length(); i++) {
            if (Character.digit(text.charAt(i), 16) < 0) {
                return false;
            }
        }
        return true;
    }

    private static byte[] readResource(String resource) throws IOException {
        byte[] bytes = PACKAGED.read(resource.substring(1));
        if (bytes == null) {
            throw new IOException(resource + " is missing from the TF jar (built for "
                    + String.join(", ", NativePlatform.carried()) + ")");
        }
        return bytes;
    }

    /** Whether this jar (or the class path) carries {@code resource}. */
    static boolean carries(String resource) {
        return PACKAGED.has(resource.substring(1));
    }

    private static void writeAtomically(Path target, byte[] bytes) throws IOException {
        Path temp = Files.createTempFile(target.getParent(), "." + target.getFileName() + "-", ".tmp");
        try {
            Files.write(temp, bytes);
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    /**
     * Locks against other processes. A file lock is held per JVM, so another class loader of
     * this JVM gets {@link OverlappingFileLockException} instead of waiting: retry until free.
     */
    private static FileLock lock(FileChannel channel) throws IOException {
        while (true) {
            try {
                return channel.lock();
            } catch (OverlappingFileLockException heldInThisJvm) {
                try {
                    Thread.sleep(10);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("interrupted while waiting for " + channel);
                }
            }
        }
    }
}
