package org.tracingfacility.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What both plugins log of a run, and the failure they raise: real runs of the core. */
class EnhancementTest {
    @TempDir
    Path work;

    private Path classes;
    private final RecordingLog log = new RecordingLog();

    @BeforeEach
    void compile() throws IOException {
        classes = work.resolve("classes");
        Map<String, String> sources = new HashMap<>(JavaFixtures.ioGroup());
        sources.put("com.example.Reader", "package com.example;\n"
                + "@IO public class Reader { @IO public int read() { return 1; } }\n");
        JavaFixtures.compile(work, classes, sources);
    }

    @Test
    void atVerboseZeroASuccessfulRunLogsItsSummaryAndWarningsOnly() {
        TfSettings settings = new TfSettings().filters(List.of("com.acme.Lib::call"));

        Enhancement enhancement = Enhancement.run(settings.requestFor(classes.toString(), null).build(), log);

        assertTrue(enhancement.failure().isEmpty());
        assertEquals(List.of(enhancement.report().summary()), log.summary);
        assertEquals(1, log.warn.size(), log.warn::toString);
        assertTrue(log.warn.get(0).startsWith("TF: filter 'com.acme.Lib::call' selected no method"), log.warn::toString);
        assertEquals(List.of(), log.progress);
        assertEquals(List.of(), log.error);
    }

    @Test
    void atVerboseOneEachClassEnhancedIsProgress() {
        Enhancement.run(new TfSettings().verbose(1).requestFor(classes.toString(), null).build(), log);

        assertEquals(List.of("enhanced com.example.Reader"), log.progress);
    }

    @Test
    void errorsBecomeOneFailureNamingTheDirectoryAndEveryError() throws IOException {
        Files.write(classes.resolve("com/example/Broken.class"), new byte[] {(byte) 0xCA, (byte) 0xFE});

        Enhancement enhancement = Enhancement.run(new TfSettings().requestFor(classes.toString(), null).build(), log);

        String failure = enhancement.failure().orElseThrow();
        assertTrue(failure.startsWith("TF found 1 error in " + classes + "; nothing was written:\n  "), failure);
        assertTrue(failure.contains("com/example/Broken.class"), failure);
        assertEquals(List.of(enhancement.report().summary()), log.error);
    }

    @Test
    void withFailOnErrorFalseTheErrorsAreLoggedAndTheBuildGoesOn() throws IOException {
        Files.write(classes.resolve("com/example/Broken.class"), new byte[] {(byte) 0xCA, (byte) 0xFE});

        Enhancement enhancement = Enhancement.run(
                new TfSettings().failOnError(false).requestFor(classes.toString(), null).build(), log);

        assertTrue(enhancement.failure().isEmpty());
        assertTrue(log.error.stream().anyMatch(line -> line.startsWith("TF found 1 error in " + classes
                + "; the classes with errors were left as they were:")), log.error::toString);
        assertEquals("TF: continuing because failOnError is false", log.warn.get(log.warn.size() - 1));
        assertEquals(1, enhancement.report().classesEnhanced(), "the good class is enhanced");
    }

    private static final class RecordingLog implements BuildLog {
        final List<String> progress = new ArrayList<>();
        final List<String> debug = new ArrayList<>();
        final List<String> summary = new ArrayList<>();
        final List<String> warn = new ArrayList<>();
        final List<String> error = new ArrayList<>();

        @Override
        public void progress(String line) {
            progress.add(line);
        }

        @Override
        public void debug(String line) {
            debug.add(line);
        }

        @Override
        public void summary(String line) {
            summary.add(line);
        }

        @Override
        public void warn(String line) {
            warn.add(line);
        }

        @Override
        public void error(String line) {
            error.add(line);
        }
    }
}
