package org.tracingfacility.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.tracingfacility.runtime.TestGroups.Items;

/** Monitors are not re-entered by the monitored code their own work runs. */
@ExtendWith(RegistryCleanup.class)
class ReentryTest {
    @Test
    void dprintFormattingAMonitoredToStringDropsItsEventsInsteadOfRecursing() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        MethodMonitorRegistry.register(Items.class, MethodMonitorFactoryDefaults.dprint(
                new PrintStream(bytes, true, StandardCharsets.UTF_8)));
        ItemFixture pen = new ItemFixture("pen");
        long droppedBefore = ReentryGuard.dropped();

        assertSame(pen, pen.self());

        String thread = "TF [" + Thread.currentThread().getName() + "] ";
        assertEquals(List.of(
                thread + "> org.tracingfacility.runtime.ItemFixture.self()",
                thread + "< org.tracingfacility.runtime.ItemFixture.self = item pen"),
                List.of(bytes.toString(StandardCharsets.UTF_8).split(System.lineSeparator())));
        assertEquals(4, ReentryGuard.dropped() - droppedBefore,
                "toString's enter and exit, and those of the self() it calls, while dprint formatted the result");

        bytes.reset();
        assertEquals("item pen", pen.toString());
        assertEquals(List.of(
                thread + "> org.tracingfacility.runtime.ItemFixture.toString()",
                thread + "  > org.tracingfacility.runtime.ItemFixture.self()",
                thread + "  < org.tracingfacility.runtime.ItemFixture.self = item pen",
                thread + "< org.tracingfacility.runtime.ItemFixture.toString = \"item pen\""),
                List.of(bytes.toString(StandardCharsets.UTF_8).split(System.lineSeparator())),
                "outside a monitor's work, the same methods are monitored as usual");
    }

    @Test
    void operationTracerDescribesArgumentsWhoseToStringIsMonitored() {
        MethodMonitorRegistry.register(Items.class, MethodMonitorFactoryDefaults.operationTracer());
        ItemFixture pen = new ItemFixture("pen");
        MethodMonitor monitor = ItemFixture.currentMonitor();

        // As if self() had an item as its argument, twice nested: describing formats the items,
        // and their toString must not push onto the stack being described.
        long outer = monitor.enterWithToken(ItemFixture.SELF, pen);
        long inner = monitor.enterWithToken(ItemFixture.SELF, new ItemFixture("cup"));
        try {
            assertEquals("ItemFixture.self(item pen) > ItemFixture.self(item cup)", OperationTracer.describe());
        } finally {
            monitor.exitWithToken(ItemFixture.SELF, null, inner);
            monitor.exitWithToken(ItemFixture.SELF, null, outer);
        }
        assertEquals("", OperationTracer.describe());
    }

    @Test
    void timingIsNotGuardedForItCallsNoApplicationCode() {
        MethodMonitorRegistry.register(Items.class, MethodMonitorFactoryDefaults.timing());
        assertSame(ItemFixture.class, ItemFixture.currentMonitor().myClass());
        assertEquals("TimingMonitor", ItemFixture.currentMonitor().getClass().getSimpleName());
    }
}
