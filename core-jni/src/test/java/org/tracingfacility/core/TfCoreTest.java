package org.tracingfacility.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.msgpack.core.MessageBufferPacker;
import org.msgpack.core.MessagePack;

/** Calls the real native core through {@link TfCore} on javac-compiled classes. */
class TfCoreTest {
    @TempDir
    Path work;

    @Test
    void reportsTheTfAnnotationsAndWritesTheirList() throws IOException {
        Path classes = work.resolve("classes");
        JavaFixtures.compile(work, classes, JavaFixtures.ioGroup());

        EnhanceReport report = TfCore.enhance(EnhanceRequest.builder(classes.toString()).verbose(3).build());

        assertTrue(report.ok(), () -> "report: " + report.summary() + " " + report.errors());
        assertEquals(EnhanceRequest.FORMAT_VERSION, report.formatVersion());
        // Subgroups count as TF annotations; @Plain and the meta-annotation itself do not.
        assertEquals(List.of("com.example.IO", "com.example.IORead", "com.example.IOWrite"), report.annotations());
        assertEquals(5, report.classesScanned());
        assertFalse(report.summary().isBlank());
        assertFalse(report.messages().isEmpty(), "verbose 3 lists the TF annotations found");

        Path list = classes.resolve("META-INF/tf/tfannotations.properties");
        assertEquals(list.toString(), report.resourceFile().orElseThrow());
        Properties properties = new Properties();
        try (InputStream in = Files.newInputStream(list)) {
            properties.load(in);
        }
        assertEquals("3", properties.getProperty("org.tracingfacility.tf.annotations.size"));
        assertEquals("com.example.IO", properties.getProperty("org.tracingfacility.tf.annotation.1"));
        assertEquals("com.example.IOWrite", properties.getProperty("org.tracingfacility.tf.annotation.3"));
    }

    @Test
    void aClassInMemoryComesBackWithTheBytesADirectoryRunWrites() throws IOException {
        Path classes = work.resolve("classes");
        Map<String, String> sources = new HashMap<>(JavaFixtures.ioGroup());
        sources.put("com.example.Work", "package com.example;\n"
                + "public class Work { int twice(int x) { return 2 * x; } }\n");
        JavaFixtures.compile(work, classes, sources);
        Path workClass = classes.resolve("com/example/Work.class");
        byte[] original = Files.readAllBytes(workClass);
        List<String> filter = List.of("com.example.Work::twice");

        EnhanceReport inMemory = TfCore.enhance(EnhanceRequest.forClass("com.example.Work", original)
                .filters(filter).build());
        EnhanceReport unselected = TfCore.enhance(EnhanceRequest.forClass("com.example.Work", original).build());
        EnhanceReport directory = TfCore.enhance(EnhanceRequest.builder(classes.toString()).filters(filter).build());

        assertTrue(inMemory.ok() && directory.ok(), () -> inMemory.errors() + " " + directory.errors());
        assertArrayEquals(Files.readAllBytes(workClass), inMemory.classBytes().orElseThrow());
        assertTrue(unselected.ok() && unselected.classBytes().isEmpty(), unselected::summary);
        assertEquals(1, unselected.classesUnchanged());
    }

    @Test
    void withACacheASecondRunReadsNothingAndWritesNothing() throws IOException {
        Path classes = work.resolve("classes");
        JavaFixtures.compile(work, classes, JavaFixtures.ioGroup());
        EnhanceRequest request = EnhanceRequest.builder(classes.toString())
                .cacheDir(work.resolve("tf-cache").toString())
                .build();

        EnhanceReport first = TfCore.enhance(request);
        assertTrue(first.ok(), first::summary);
        assertEquals(0, first.classesUpToDate());
        assertTrue(first.written().contains(classes.resolve("META-INF/tf/tfannotations.properties").toString()),
                first.written()::toString);

        EnhanceReport second = TfCore.enhance(request);
        assertTrue(second.ok(), second::summary);
        assertEquals(5, second.classesUpToDate(), second::summary);
        assertEquals(List.of(), second.written());
        assertTrue(second.summary().contains("5 up to date in the cache"), second::summary);

        Files.write(work.resolve("tf-cache/state"), new byte[] {1, 2, 3});
        EnhanceReport damaged = TfCore.enhance(request);
        assertTrue(damaged.ok(), damaged::summary);
        assertEquals(1, damaged.warnings().size(), damaged.warnings()::toString);
        assertTrue(damaged.warnings().get(0).contains("rebuilding"), damaged.warnings()::toString);
    }

    @Test
    void dryRunWritesNothing() throws IOException {
        Path classes = work.resolve("classes");
        JavaFixtures.compile(work, classes, JavaFixtures.ioGroup());

        EnhanceReport report = TfCore.enhance(EnhanceRequest.builder(classes.toString()).dryRun(true).build());

        assertTrue(report.ok(), report::summary);
        assertEquals(3, report.annotations().size());
        assertTrue(report.resourceFile().isEmpty());
        assertFalse(Files.exists(classes.resolve("META-INF")));
    }

    @Test
    void aCorruptClassFileIsAFailedReportNamingTheFileNotAnException() throws IOException {
        Path classes = work.resolve("classes");
        JavaFixtures.compile(work, classes, JavaFixtures.ioGroup());
        Path broken = classes.resolve("com/example/Broken.class");
        Files.write(broken, new byte[] {(byte) 0xCA, (byte) 0xFE, (byte) 0xBA, (byte) 0xBE, 0, 0, 0, 55, 0});

        EnhanceReport report = TfCore.enhance(EnhanceRequest.builder(classes.toString()).build());

        assertFalse(report.ok());
        assertEquals(1, report.errors().size(), report.errors().toString());
        Diagnostic error = report.errors().get(0);
        assertEquals(broken.toString(), error.file().orElseThrow());
        assertTrue(error.toString().startsWith(broken + ": "), error.toString());
        assertTrue(report.summary().contains("FAILED"), report.summary());
        assertFalse(Files.exists(classes.resolve("META-INF/tf/tfannotations.properties")));
    }

    @Test
    void aMissingClassDirectoryIsAFailedReport() {
        Path missing = work.resolve("no-such-dir");

        EnhanceReport report = TfCore.enhance(EnhanceRequest.builder(missing.toString()).build());

        assertFalse(report.ok());
        assertEquals(missing.toString(), report.errors().get(0).file().orElseThrow());
    }

    @Test
    void aPanicBecomesAnExceptionAndTheCoreStillAnswers() throws IOException {
        Path classes = work.resolve("classes");
        JavaFixtures.compile(work, classes, JavaFixtures.ioGroup());

        TfCore.version(); // loads the library through the facade first
        NativeCoreException panic = assertThrows(NativeCoreException.class,
                () -> NativeCore.panicForTest("injected by TfCoreTest".getBytes(StandardCharsets.UTF_8)));
        assertTrue(panic.getMessage().contains("injected by TfCoreTest"), panic.getMessage());

        EnhanceReport after = TfCore.enhance(EnhanceRequest.builder(classes.toString()).build());
        assertTrue(after.ok(), after::summary);
        assertEquals(3, after.annotations().size());
    }

    /** One type for every failure of the core, the one both plugins catch (issue 51). */
    @Test
    void throughTheFacadeEveryFailureOfTheCoreIsANativeCoreException() {
        NativeCoreException refused = assertThrows(NativeCoreException.class,
                () -> TfCore.called(new byte[] {(byte) 0xC1}));
        assertTrue(refused.getCause() instanceof IllegalArgumentException, String.valueOf(refused.getCause()));
    }

    @Test
    void aRequestTheCoreCannotDecodeIsAnIllegalArgument() {
        TfCore.version(); // loads the library through the facade first
        assertThrows(IllegalArgumentException.class, () -> NativeCore.enhance(new byte[] {(byte) 0xC1}));
    }

    @Test
    void aFormatVersionTheCoreDoesNotKnowIsRefused() throws IOException {
        MessageBufferPacker request = MessagePack.newDefaultBufferPacker();
        request.packMapHeader(2);
        request.packString("format_version").packInt(EnhanceRequest.FORMAT_VERSION + 1);
        request.packString("class_dir").packString(work.toString());
        TfCore.version(); // loads the library through the facade first

        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> NativeCore.enhance(request.toByteArray()));

        assertTrue(refused.getMessage().contains(String.valueOf(EnhanceRequest.FORMAT_VERSION + 1)),
                refused.getMessage());
    }

    @Test
    void reportsTheCrateVersion() {
        assertTrue(TfCore.version().matches("\\d+\\.\\d+\\.\\d+.*"), TfCore.version());
    }
}
