package org.tracingfacility.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.tracingfacility.runtime.TestGroups.IORead;

/** Records with the JDK's flight recorder and reads the recording back, as a user's tools would. */
@ExtendWith(RegistryCleanup.class)
class JfrTest {
    private static final String TRACE = "org.tracingfacility.MethodTrace";
    private static final String TIMING = "org.tracingfacility.MethodTiming";

    @Test
    void invocationsBecomeTraceAndTimingEvents(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("tf.jfr");
        MethodMonitorRegistry.register(IORead.class, MethodMonitorFactoryDefaults.jfr());
        try (Recording recording = new Recording()) {
            recording.enable(TRACE);
            recording.enable(TIMING);
            recording.start();
            ReaderFixture reader = new ReaderFixture();
            reader.marshal(1, 5);
            reader.marshal(2, 5);
            assertThrows(IOException.class, reader::read);
            recording.stop();
            recording.dump(file);
        }

        List<RecordedEvent> events = RecordingFile.readAllEvents(file);
        List<RecordedEvent> traces = ofType(events, TRACE);
        assertEquals(List.of("org.tracingfacility.runtime.ReaderFixture.marshal",
                "org.tracingfacility.runtime.ReaderFixture.marshal",
                "org.tracingfacility.runtime.ReaderFixture.readFails"),
                traces.stream().map(e -> e.getString("method")).collect(Collectors.toList()));
        for (RecordedEvent trace : traces.subList(0, 2)) {
            assertTrue(trace.getDuration().compareTo(Duration.ofMillis(5)) >= 0, trace.toString());
            assertEquals(Thread.currentThread().getName(), trace.getThread().getJavaName());
            assertEquals(null, trace.getString("exception"));
        }
        assertEquals("java.io.IOException", traces.get(2).getString("exception"));

        RecordedEvent timing = ofType(events, TIMING).stream()
                .filter(e -> e.getString("method").equals("org.tracingfacility.runtime.ReaderFixture.marshal(long,long)"))
                .reduce((first, last) -> last)
                .orElseThrow(() -> new AssertionError("no timing event for marshal in " + events));
        assertEquals(2, timing.getLong("invocations"));
        assertTrue(timing.getDuration("average").compareTo(Duration.ofMillis(5)) >= 0, timing.toString());
        assertTrue(timing.getDuration("minimum").compareTo(timing.getDuration("maximum")) <= 0, timing.toString());

        assertTrue(jfrPrint(file).contains("method = \"org.tracingfacility.runtime.ReaderFixture.readFails\""),
                "the JDK's jfr tool reads the events");
    }

    @Test
    void noEventsWithoutARecording(@TempDir Path dir) throws Exception {
        MethodMonitorRegistry.register(IORead.class, MethodMonitorFactoryDefaults.jfr());
        new ReaderFixture().readInt(1); // no recording: nothing to commit, nothing fails
        try (Recording recording = new Recording()) {
            recording.enable(TRACE);
            recording.start();
            recording.stop();
            Path file = dir.resolve("empty.jfr");
            recording.dump(file);
            assertEquals(List.of(), ofType(RecordingFile.readAllEvents(file), TRACE));
        }
    }

    private static List<RecordedEvent> ofType(List<RecordedEvent> events, String type) {
        return events.stream().filter(e -> e.getEventType().getName().equals(type)).collect(Collectors.toList());
    }

    private static String jfrPrint(Path file) throws Exception {
        Path jfr = Paths.get(System.getProperty("java.home"), "bin", "jfr");
        Process process = new ProcessBuilder(jfr.toString(), "print", "--events", TRACE, file.toString())
                .redirectErrorStream(true)
                .start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, process.waitFor(), output);
        return output;
    }
}
