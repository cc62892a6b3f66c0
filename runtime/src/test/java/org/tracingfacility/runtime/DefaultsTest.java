package org.tracingfacility.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.tracingfacility.runtime.TestGroups.IO;
import org.tracingfacility.runtime.TestGroups.IORead;
import org.tracingfacility.runtime.support.EnhancedCodeSupport;

@ExtendWith(RegistryCleanup.class)
class DefaultsTest {
    @AfterEach
    void resetHook() {
        WriterFixture.onWrite = () -> { };
    }

    @Test
    void noOpMonitorsExistButAskForNothing() {
        MethodMonitorRegistry.register(IO.class, MethodMonitorFactoryDefaults.noOp());
        MethodMonitor monitor = ReaderFixture.currentMonitor();
        assertSame(ReaderFixture.class, monitor.myClass());
        assertFalse(monitor.wantsArguments());
        assertEquals("8", new WriterFixture().copy(4));
    }

    @Test
    void dprintShowsTheThrowableThatEndedAMethodNotANullResult() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        MethodMonitor dprint = MethodMonitorFactoryDefaults.dprint(new PrintStream(bytes, true, StandardCharsets.UTF_8))
                .create(new ReaderFixture().getClass());

        // What readInt's catch-all handler does when the method ends by an exception.
        long token = dprint.enterWithToken(ReaderFixture.READ_INT, 7);
        EnhancedCodeSupport.failedWithResult(new IllegalStateException("empty"), null, dprint, ReaderFixture.READ_INT,
                token);
        // A method that returns null still shows it.
        dprint.exitWithToken(ReaderFixture.READ_INT, null, dprint.enterWithToken(ReaderFixture.READ_INT, 8));

        String thread = "TF [" + Thread.currentThread().getName() + "] ";
        assertEquals(List.of(
                thread + "> org.tracingfacility.runtime.ReaderFixture.readInt(7)",
                thread + "! org.tracingfacility.runtime.ReaderFixture.readInt threw java.lang.IllegalStateException: empty",
                thread + "< org.tracingfacility.runtime.ReaderFixture.readInt threw java.lang.IllegalStateException: empty",
                thread + "> org.tracingfacility.runtime.ReaderFixture.readInt(8)",
                thread + "< org.tracingfacility.runtime.ReaderFixture.readInt = null"),
                List.of(bytes.toString(StandardCharsets.UTF_8).split(System.lineSeparator())));
    }

    @Test
    void dprintPrintsEveryEventIndentedByNesting() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        MethodMonitorRegistry.register(IO.class, MethodMonitorFactoryDefaults.dprint(
                new PrintStream(bytes, true, StandardCharsets.UTF_8)));

        new WriterFixture().copy(4);
        new ReaderFixture().marshal(9, 0);
        assertThrows(IOException.class, () -> new ReaderFixture().read());

        String thread = "TF [" + Thread.currentThread().getName() + "] ";
        assertEquals(List.of(
                thread + "> org.tracingfacility.runtime.WriterFixture.copy(4)",
                thread + "  > org.tracingfacility.runtime.ReaderFixture.readInt(4)",
                thread + "  < org.tracingfacility.runtime.ReaderFixture.readInt = 8",
                thread + "  > org.tracingfacility.runtime.WriterFixture.write(\"8\")",
                thread + "  < org.tracingfacility.runtime.WriterFixture.write",
                thread + "< org.tracingfacility.runtime.WriterFixture.copy = \"8\"",
                thread + "> org.tracingfacility.runtime.ReaderFixture.marshal(9, 0)",
                thread + "  . org.tracingfacility.runtime.ReaderFixture.marshal: startMarshal() [ENTER]",
                thread + "  . org.tracingfacility.runtime.ReaderFixture.marshal: endMarshal() [EXIT]",
                thread + "  . org.tracingfacility.runtime.ReaderFixture.marshal: note(\"done\", 9)",
                thread + "< org.tracingfacility.runtime.ReaderFixture.marshal = 9",
                thread + "> org.tracingfacility.runtime.ReaderFixture.readFails()",
                thread + "! org.tracingfacility.runtime.ReaderFixture.readFails threw java.io.IOException: disk gone",
                thread + "< org.tracingfacility.runtime.ReaderFixture.readFails threw java.io.IOException: disk gone"),
                List.of(bytes.toString(StandardCharsets.UTF_8).split(System.lineSeparator())));
    }

    @Test
    void dprintShowsRedactedValuesAsTheMarker() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        MethodMonitor monitor = MethodMonitorFactoryDefaults.dprint(new PrintStream(bytes, true, StandardCharsets.UTF_8))
                .create(WriterFixture.class);
        new WriterFixture(); // registered, so names resolve
        monitor.enter(WriterFixture.WRITE, EnhancedCodeSupport.REDACTED);
        monitor.exit(WriterFixture.WRITE);
        assertTrue(bytes.toString(StandardCharsets.UTF_8).contains("WriterFixture.write(<redacted>)"), bytes.toString());
    }

    @Test
    void operationTracerKnowsTheCurrentNestingOfCalls() {
        MethodMonitorRegistry.register(IO.class, MethodMonitorFactoryDefaults.operationTracer());
        AtomicReference<String> seenInsideWrite = new AtomicReference<>();
        WriterFixture.onWrite = () -> seenInsideWrite.set(OperationTracer.describe());

        new WriterFixture().copy(4);

        assertEquals("WriterFixture.copy(4) > WriterFixture.write(\"8\")", seenInsideWrite.get());
        assertEquals("", OperationTracer.describe(), "nothing is left once the calls have returned");
    }

    @Test
    void operationTracerUnwindsOnExceptions() {
        MethodMonitorRegistry.register(IO.class, MethodMonitorFactoryDefaults.operationTracer());
        WriterFixture.onWrite = () -> {
            throw new IllegalStateException("while " + OperationTracer.describe());
        };
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> new WriterFixture().copy(1));
        assertEquals("while WriterFixture.copy(1) > WriterFixture.write(\"2\")", e.getMessage());
        assertEquals(List.of(), OperationTracer.current());
    }

    @Test
    void composeFansOutToEveryFactoryInOrder() {
        List<String> order = new ArrayList<>();
        RecordingFactory a = new RecordingFactory("a");
        RecordingFactory b = new RecordingFactory("b");
        MethodMonitorFactory inOrder = cls -> {
            order.add("created");
            return MethodMonitorFactoryDefaults.noOp().create(cls);
        };
        MethodMonitorRegistry.register(IORead.class, MethodMonitorFactoryDefaults.compose(List.of(a, b, inOrder)));

        new ReaderFixture().readInt(2);

        assertEquals(List.of("a:enter ReaderFixture.readInt[2]", "a:exit ReaderFixture.readInt=4"), a.events());
        assertEquals(a.events().toString().replace("a:", "b:"), b.events().toString());
        assertEquals(List.of("created"), order);
        assertTrue(ReaderFixture.currentMonitor().wantsArguments(), "wants arguments if any part does");
    }

    @Test
    void aComposedMonitorOfArgumentlessPartsAsksForNoArguments() {
        MethodMonitorFactory both = MethodMonitorFactoryDefaults.compose(
                List.of(MethodMonitorFactoryDefaults.noOp(), MethodMonitorFactoryDefaults.timing()));
        new ReaderFixture();
        assertFalse(both.create(ReaderFixture.class).wantsArguments());
    }

    @Test
    void defaultFactoriesHaveNames() {
        for (String name : MethodMonitorFactoryDefaults.names()) {
            assertEquals(name, String.valueOf(MethodMonitorFactoryDefaults.byName(name)));
        }
        assertSame(MethodMonitorFactoryDefaults.timing(), MethodMonitorFactoryDefaults.byName("TIMING"));
        assertEquals(null, MethodMonitorFactoryDefaults.byName("nope"));
    }
}
