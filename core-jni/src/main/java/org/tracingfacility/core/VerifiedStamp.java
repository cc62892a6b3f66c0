package org.tracingfacility.core;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.Map;
import java.util.Optional;

/**
 * Remembers that an extracted library's SHA-256 was checked, so that later builds need not
 * hash it again: in a fresh JVM, SHA-256 runs interpreted and costs some 110 ms for the 2 MB
 * library, more than the core's own work in a build where nothing changed.
 *
 * <p>The stamp, {@code libtf_core.so.verified} beside the library, records the file's size,
 * modification time, status-change time and inode. Any write to the file changes its
 * status-change time, which no user-space call can set back, so a stamp that still matches
 * means the bytes are those that were checked. As git does for its index ("racy git"), a
 * stamp is only written for a file last changed more than {@link #SETTLED} ago, since a write
 * within the file system's timestamp granularity could leave every recorded value as it was.
 * Without the {@code unix} attribute view (Windows), there is no stamp and every load hashes.
 */
final class VerifiedStamp {
    static final String SUFFIX = ".verified";
    /** How long a file must have been left alone before a stamp vouches for it. */
    static final long SETTLED_MILLIS = 2_000;
    private static final String ATTRIBUTES = "unix:size,lastModifiedTime,ctime,ino";

    private VerifiedStamp() {}

    /** Whether {@code file} holds exactly what it held when its stamp was written. */
    static boolean matches(Path file) {
        Optional<String> current = describe(file);
        if (current.isEmpty()) {
            return false;
        }
        try {
            return current.get().equals(Files.readString(stampOf(file), StandardCharsets.US_ASCII));
        } catch (IOException e) {
            return false; // no stamp (yet), or unreadable: hash
        }
    }

    /**
     * Records that {@code file}'s bytes were just checked, if it has been left alone long
     * enough for its timestamps to tell a later write apart. Failing to write the stamp only
     * costs the next build a hash.
     */
    static void record(Path file, long nowMillis) {
        Optional<String> current = describe(file);
        if (current.isEmpty() || !settled(file, nowMillis)) {
            return;
        }
        Path stamp = stampOf(file);
        try {
            Path temp = Files.createTempFile(file.getParent(), "." + file.getFileName() + "-", ".tmp");
            try {
                Files.writeString(temp, current.get(), StandardCharsets.US_ASCII);
                Files.move(temp, stamp, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } finally {
                Files.deleteIfExists(temp);
            }
        } catch (IOException e) {
            // The stamp is an optimization only.
        }
    }

    static Path stampOf(Path file) {
        return file.resolveSibling(file.getFileName() + SUFFIX);
    }

    private static boolean settled(Path file, long nowMillis) {
        try {
            Map<String, Object> a = Files.readAttributes(file, "unix:lastModifiedTime,ctime");
            long changed = Math.max(((FileTime) a.get("lastModifiedTime")).toMillis(), ((FileTime) a.get("ctime")).toMillis());
            return nowMillis - changed > SETTLED_MILLIS;
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return false;
        }
    }

    /** Size, modification and status-change times (full precision) and inode, as one line. */
    private static Optional<String> describe(Path file) {
        try {
            Map<String, Object> a = Files.readAttributes(file, ATTRIBUTES);
            FileTime modified = (FileTime) a.get("lastModifiedTime");
            FileTime changed = (FileTime) a.get("ctime");
            return Optional.of(a.get("size") + " " + modified.toInstant() + " " + changed.toInstant() + " " + a.get("ino"));
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
