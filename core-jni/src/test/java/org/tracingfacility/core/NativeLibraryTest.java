package org.tracingfacility.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Extraction and verification of the packaged library, without loading it. */
class NativeLibraryTest {
    @TempDir
    Path cache;

    private String resource;
    private String sha256;
    private byte[] packaged;

    @BeforeEach
    void readThePackagedLibrary() throws IOException {
        resource = NativeLibrary.resourceFor(NativePlatform.current());
        sha256 = NativeLibrary.recordedSha256(resource);
        try (InputStream in = NativeLibrary.class.getResourceAsStream(resource)) {
            packaged = in.readAllBytes();
        }
    }

    @Test
    void theBuildRecordedTheHashOfThePackagedBytes() {
        assertEquals(NativeLibrary.sha256(packaged), sha256);
    }

    @Test
    void extractsTheExactBytesAndLeavesNoTemporaryFiles() throws IOException {
        Path extracted = NativeLibrary.extract(cache, resource, sha256);

        assertEquals(cache.resolve(NativeLibrary.LIBRARY_FILE), extracted);
        assertArrayEquals(packaged, Files.readAllBytes(extracted));
        assertEquals(List.of(".lock", NativeLibrary.LIBRARY_FILE), fileNames(cache));
    }

    @Test
    void concurrentExtractionsAgreeOnOneFile() throws Exception {
        int threads = 4;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<Path>> results = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                Callable<Path> extract = () -> {
                    start.await();
                    return NativeLibrary.extract(cache, resource, sha256);
                };
                results.add(pool.submit(extract));
            }
            start.countDown();
            for (Future<Path> result : results) {
                assertEquals(cache.resolve(NativeLibrary.LIBRARY_FILE), result.get());
            }
        } finally {
            pool.shutdownNow();
        }
        assertArrayEquals(packaged, Files.readAllBytes(cache.resolve(NativeLibrary.LIBRARY_FILE)));
        assertEquals(List.of(".lock", NativeLibrary.LIBRARY_FILE), fileNames(cache));
    }

    @Test
    void aTamperedExtractedCopyIsRefusedWithAClearError() throws IOException {
        Path extracted = NativeLibrary.extract(cache, resource, sha256);
        byte[] tampered = packaged.clone();
        tampered[tampered.length / 2] ^= 0x55;
        Files.write(extracted, tampered);

        NativeCoreException refused = assertThrows(NativeCoreException.class,
                () -> NativeLibrary.loadPrivateCopy(extracted, sha256));

        assertTrue(refused.getMessage().contains(extracted.toString()), refused.getMessage());
        assertTrue(refused.getMessage().contains("expected " + sha256), refused.getMessage());
        assertTrue(refused.getMessage().contains("found " + NativeLibrary.sha256(tampered)), refused.getMessage());
        assertEquals(List.of(".lock", NativeLibrary.LIBRARY_FILE), fileNames(cache), "no copy was left behind");
    }

    @Test
    void aVerifiedStampSparesTheHashOnlyWhileTheFileIsUnchanged() throws Exception {
        Path extracted = NativeLibrary.extract(cache, resource, sha256);
        Path stamp = VerifiedStamp.stampOf(extracted);

        VerifiedStamp.record(extracted, System.currentTimeMillis());
        assertFalse(Files.exists(stamp), "a file written just now could change unseen within a timestamp tick");

        Thread.sleep(VerifiedStamp.SETTLED_MILLIS + 200);
        VerifiedStamp.record(extracted, System.currentTimeMillis());
        assertTrue(VerifiedStamp.matches(extracted), "a settled, checked file gets a stamp");
        assertEquals(List.of(".lock", NativeLibrary.LIBRARY_FILE, NativeLibrary.LIBRARY_FILE + VerifiedStamp.SUFFIX),
                fileNames(cache));

        byte[] tampered = packaged.clone();
        tampered[tampered.length / 3] ^= 0x55;
        Files.write(extracted, tampered); // same size, same inode: only the timestamps tell
        assertFalse(VerifiedStamp.matches(extracted), "any write invalidates the stamp");
        NativeCoreException refused = assertThrows(NativeCoreException.class,
                () -> NativeLibrary.loadPrivateCopy(extracted, sha256));
        assertTrue(refused.getMessage().contains("found " + NativeLibrary.sha256(tampered)), refused.getMessage());
    }

    @Test
    void packagedBytesThatDoNotMatchTheRecordedHashAreNeverExtracted() {
        String wrong = "0".repeat(64);

        NativeCoreException refused = assertThrows(NativeCoreException.class,
                () -> NativeLibrary.extract(cache, resource, wrong));

        assertTrue(refused.getMessage().contains("packaged in the TF jar"), refused.getMessage());
        assertTrue(refused.getMessage().contains("expected " + wrong), refused.getMessage());
        assertFalse(Files.exists(cache.resolve(NativeLibrary.LIBRARY_FILE)));
    }

    private static List<String> fileNames(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList());
        }
    }
}
