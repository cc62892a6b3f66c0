package org.tracingfacility.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DiskReplyCacheTest {
    @TempDir
    Path dir;

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aKeptReplyIsFoundForAnEqualRequestOnly() {
        DiskReplyCache cache = new DiskReplyCache(dir);
        assertNull(cache.find(bytes("request")));
        cache.keep(bytes("request"), bytes("reply"));
        assertArrayEquals(bytes("reply"), new DiskReplyCache(dir).find(bytes("request")), "another JVM's cache finds it");
        assertNull(cache.find(bytes("requesT")));
        assertEquals(0, cache.hits(), "hits are counted per cache object: the other found it");
    }

    @Test
    void anEntryHoldingAnotherRequestUnderTheSameNameIsAMiss() throws Exception {
        DiskReplyCache cache = new DiskReplyCache(dir);
        cache.keep(bytes("requesX"), bytes("other reply")); // as long as "request": only the bytes differ
        Path entry;
        try (Stream<Path> entries = Files.list(dir)) {
            entry = entries.findFirst().orElseThrow();
        }
        // The file a lookup of "request" opens, holding what "requesX" kept: as if the
        // two hashed alike.
        Files.move(entry, dir.resolve(DiskReplyCache.entryName(bytes("request"))));
        assertNull(cache.find(bytes("request")));
    }

    @Test
    void aTruncatedOrForeignFileIsAMissAndIsWrittenAnew() throws Exception {
        DiskReplyCache cache = new DiskReplyCache(dir);
        Path entry = dir.resolve(DiskReplyCache.entryName(bytes("request")));
        assertEquals(String.format("%016x.reply", DiskReplyCache.hash(bytes("request"))), entry.getFileName().toString());
        Files.write(entry, new byte[] {0x54, 0x46});
        assertNull(cache.find(bytes("request")));
        Files.write(entry, bytes("not an entry of this cache at all"));
        assertNull(cache.find(bytes("request")));
        cache.keep(bytes("request"), bytes("reply"));
        assertArrayEquals(bytes("reply"), cache.find(bytes("request")));
    }

    @Test
    void theCoreIsAskedOnceAndItsReplyKept() throws Exception {
        Path replies = dir.resolve("replies");
        Path classes = dir.resolve("classes");
        JavaFixtures.compile(dir, classes, Map.of("com.example.Work", "package com.example;\n"
                + "public class Work { int twice(int x) { return 2 * x; } }\n"));
        byte[] original = Files.readAllBytes(classes.resolve("com/example/Work.class"));
        DiskReplyCache cache = new DiskReplyCache(replies);
        EnhanceRequest request = EnhanceRequest.forClass("com.example.Work", original)
                .filters(List.of("com.example.Work::twice")).verbose(1).build();
        EnhanceReport asked = TfCore.enhance(request, cache);
        EnhanceReport answered = TfCore.enhance(request, cache);
        assertEquals(1, cache.hits());
        assertTrue(asked.ok());
        assertTrue(answered.ok());
        assertArrayEquals(asked.classBytes().orElseThrow(), answered.classBytes().orElseThrow());
        assertEquals(asked.messages(), answered.messages());
        assertEquals(List.of("enhanced com.example.Work"), answered.messages().subList(0, 1));
        try (Stream<Path> entries = Files.list(replies)) {
            assertEquals(1, entries.count());
        }
    }
}
