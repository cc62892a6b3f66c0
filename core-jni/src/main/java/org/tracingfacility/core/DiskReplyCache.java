package org.tracingfacility.core;

import java.io.FileInputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * The core's replies kept on this machine, beside the native library they came from
 * ({@code <native dir>/<version>/<library SHA-256>/replies/}): a JVM that asks what an earlier
 * one asked (the same application started again with the same agent: the same classes,
 * settings and sites) gets its answers without loading the native library at all. The agent's
 * start-up on a known application is then its own Java code alone.
 *
 * <p>An entry is one file named by a 64-bit hash of the request, holding the whole request
 * and the reply. A reply is returned only for a request equal byte for byte, so the hash
 * decides nothing but the file's name. Entries are written to a temporary file renamed into
 * place (a reader sees a whole entry or none), and once the directory holds
 * {@value #MAX_ENTRIES} entries no more are kept: delete the directory to start again.
 * Any failure to read or write is a miss, never the caller's failure: this is a cache.
 */
public final class DiskReplyCache implements ReplyCache {
    /** The most entries kept: some hundred megabytes at most, for class files of usual size. */
    static final int MAX_ENTRIES = 20_000;
    private static final int MAGIC = 0x54465231; // "TFR1"

    private final Path directory;
    private final AtomicLong hits = new AtomicLong();
    /** Entries counted once, at the first keep of this JVM; -1 until then. */
    private long entries = -1;

    DiskReplyCache(Path directory) {
        this.directory = directory;
    }

    /**
     * The cache of the native library this jar carries, for this platform; its directory is
     * found from the jar's resources, without loading the library.
     *
     * @throws NativeCoreException when the jar carries no library for this platform
     */
    public static DiskReplyCache forPackagedCore() {
        return new DiskReplyCache(NativeLibrary.extractionDirectory().resolve("replies"));
    }

    /** How many replies came from this cache in this JVM. */
    public long hits() {
        return hits.get();
    }

    @Override
    public byte[] find(byte[] request) {
        byte[] entry;
        // A stream, not Files.readAllBytes: its channel classes are loaded and run for the first
        // time here, milliseconds of the agent's start-up; the stream's are in use already.
        try (InputStream in = new FileInputStream(entryFor(request).toFile())) {
            entry = in.readAllBytes();
        } catch (FileNotFoundException e) {
            return null;
        } catch (IOException | RuntimeException e) {
            return null; // unreadable: asked again of the core, and written anew
        }
        int headerEnd = 8 + request.length;
        if (entry.length < headerEnd) {
            return null;
        }
        ByteBuffer header = ByteBuffer.wrap(entry, 0, 8);
        if (header.getInt() != MAGIC || header.getInt() != request.length
                || !Arrays.equals(entry, 8, headerEnd, request, 0, request.length)) {
            return null;
        }
        hits.incrementAndGet();
        return Arrays.copyOfRange(entry, headerEnd, entry.length);
    }

    @Override
    public void keep(byte[] request, byte[] reply) {
        try {
            if (!roomForOneMore()) {
                return;
            }
            Path target = entryFor(request);
            Path temp = Files.createTempFile(directory, ".entry-", ".tmp");
            try {
                ByteBuffer entry = ByteBuffer.allocate(8 + request.length + reply.length);
                entry.putInt(MAGIC).putInt(request.length).put(request).put(reply);
                Files.write(temp, entry.array());
                Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } finally {
                Files.deleteIfExists(temp);
            }
        } catch (IOException | RuntimeException e) {
            // A reply not kept is asked of the core again next time; nothing else depends on it.
        }
    }

    private synchronized boolean roomForOneMore() throws IOException {
        if (entries < 0) {
            Files.createDirectories(directory);
            try (Stream<Path> listed = Files.list(directory)) {
                entries = listed.count();
            }
        }
        if (entries >= MAX_ENTRIES) {
            return false;
        }
        entries++;
        return true;
    }

    private Path entryFor(byte[] request) {
        return directory.resolve(entryName(request));
    }

    /** The 16 hex digits of the request's hash; not String.format, which loads locale data. */
    static String entryName(byte[] request) {
        String hex = Long.toHexString(hash(request));
        return "0".repeat(16 - hex.length()) + hex + ".reply";
    }

    /** FNV-1a, 64 bits, with a final mix: only spreads names, equality is checked in full. */
    static long hash(byte[] bytes) {
        long h = 0xcbf29ce484222325L;
        for (byte b : bytes) {
            h ^= b & 0xff;
            h *= 0x100000001b3L;
        }
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        return h ^ (h >>> 33);
    }
}
