package org.tracingfacility.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.tracingfacility.runtime.TestGroups.Audit;
import org.tracingfacility.runtime.TestGroups.Deep;
import org.tracingfacility.runtime.TestGroups.IO;
import org.tracingfacility.runtime.TestGroups.IORead;
import org.tracingfacility.runtime.TestGroups.IOWrite;
import org.tracingfacility.runtime.TestGroups.NotAGroup;
import org.tracingfacility.runtime.support.EnhancedCodeSupport;

@ExtendWith(RegistryCleanup.class)
class RegistryTest {
    @Test
    void aFactoryOnAGroupSeesTheEventsOfItsClasses() throws Exception {
        RecordingFactory factory = new RecordingFactory("r");
        MethodMonitorRegistry.register(IORead.class, factory);

        ReaderFixture reader = new ReaderFixture();
        assertEquals(6, reader.readInt(3));
        assertThrows(IOException.class, reader::read);

        assertEquals(List.of(
                "r:enter ReaderFixture.readInt[3]",
                "r:exit ReaderFixture.readInt=6",
                "r:enter ReaderFixture.readFails[]",
                "r:exception ReaderFixture.readFails disk gone",
                "r:exit ReaderFixture.readFails"), factory.events());
    }

    @Test
    void infoMethodsReportToTheCallersMonitor() throws Exception {
        RecordingFactory factory = new RecordingFactory("r");
        MethodMonitorRegistry.register(IORead.class, factory);

        new ReaderFixture().marshal(7, 0);

        assertEquals(List.of(
                "r:enter ReaderFixture.marshal[7, 0]",
                "r:info ReaderFixture.marshal>ReaderFixture.startMarshal[] ENTER",
                "r:info ReaderFixture.marshal>ReaderFixture.endMarshal[] EXIT",
                "r:info ReaderFixture.marshal>ReaderFixture.note[done, 7] NONE",
                "r:exit ReaderFixture.marshal=7"), factory.events());
    }

    @Test
    void withoutAFactoryNothingIsMonitored() {
        new ReaderFixture().readInt(1);
        assertNull(ReaderFixture.currentMonitor());
        assertNull(ReaderFixture.holderContent());
        assertNull(MethodMonitorRegistry.monitor(ReaderFixture.class, IORead.class));
    }

    @Test
    void aParentGroupReachesSubgroupsTransitively() {
        RecordingFactory factory = new RecordingFactory("io");
        MethodMonitorRegistry.register(IO.class, factory);

        new ReaderFixture().readInt(1);
        new WriterFixture().write("x");

        assertEquals(List.of(
                "io:enter ReaderFixture.readInt[1]", "io:exit ReaderFixture.readInt=2",
                "io:enter WriterFixture.write[x]", "io:exit WriterFixture.write"), factory.events());
        assertEquals(List.of(factory), List.of(MethodMonitorRegistry.registrations().values().toArray()));
    }

    @Test
    void aSubgroupsOwnRegistrationWinsOverItsParents() {
        RecordingFactory parent = new RecordingFactory("io");
        RecordingFactory own = new RecordingFactory("read");
        MethodMonitorRegistry.register(IO.class, parent);
        MethodMonitorRegistry.register(IORead.class, own);

        new ReaderFixture().readInt(1);
        new WriterFixture().write("x");

        assertEquals(List.of("read:enter ReaderFixture.readInt[1]", "read:exit ReaderFixture.readInt=2"), own.events());
        assertEquals(List.of("io:enter WriterFixture.write[x]", "io:exit WriterFixture.write"), parent.events());

        MethodMonitorRegistry.clear(IORead.class);
        new ReaderFixture().readInt(2);
        assertTrue(parent.events().contains("io:enter ReaderFixture.readInt[2]"),
                "clearing the subgroup hands it back to its parent: " + parent.events());
    }

    @Test
    void aSubgroupUnderSeveralRegisteredParentsGetsTheirComposition() {
        RecordingFactory audit = new RecordingFactory("audit");
        RecordingFactory io = new RecordingFactory("io");
        MethodMonitorRegistry.register(IO.class, io);
        MethodMonitorRegistry.register(Audit.class, audit);

        new WriterFixture().write("x");

        assertEquals(List.of("audit:enter WriterFixture.write[x]", "audit:exit WriterFixture.write"), audit.events());
        assertEquals(List.of("io:enter WriterFixture.write[x]", "io:exit WriterFixture.write"), io.events());
    }

    @Test
    void oneFactoryReachingASubgroupTwiceSeesEachEventOnce() {
        RecordingFactory both = new RecordingFactory("both");
        MethodMonitorRegistry.register(IO.class, both);
        MethodMonitorRegistry.register(Audit.class, both);

        new WriterFixture().write("x");

        assertEquals(List.of("both:enter WriterFixture.write[x]", "both:exit WriterFixture.write"), both.events());
    }

    @Test
    void registrationReachesGrandchildrenAndStopsAtOwnRegistrations() {
        RecordingFactory io = new RecordingFactory("io");
        RecordingFactory read = new RecordingFactory("read");
        MethodMonitorRegistry.register(IO.class, io);
        assertSame(io, soleFactoryFor(Deep.class));
        MethodMonitorRegistry.register(IORead.class, read);
        assertSame(read, soleFactoryFor(Deep.class));
    }

    @Test
    void registerAndClearReachClassesLoadedBeforeAndAfter() {
        // ReaderFixture may be loaded by an earlier test; WriterFixture's call site links now or later.
        new ReaderFixture().readInt(0);
        RecordingFactory factory = new RecordingFactory("r");
        MethodMonitorRegistry.register(IO.class, factory);
        new WriterFixture().write("late");
        new ReaderFixture().readInt(5);
        assertTrue(factory.events().contains("r:enter WriterFixture.write[late]"));
        assertTrue(factory.events().contains("r:enter ReaderFixture.readInt[5]"));

        MethodMonitorRegistry.clear(IO.class);
        int before = factory.events().size();
        new WriterFixture().write("after clear");
        new ReaderFixture().readInt(6);
        assertEquals(before, factory.events().size());
        assertNull(WriterFixture.holderContent());
        assertNull(ReaderFixture.currentMonitor());
    }

    @Test
    void holderAndCallSiteAlwaysHoldTheSameMonitor() {
        MethodMonitorRegistry.register(IORead.class, new RecordingFactory("a"));
        MethodMonitor viaCallSite = ReaderFixture.currentMonitor();
        assertNotNull(viaCallSite);
        assertSame(viaCallSite, ReaderFixture.holderContent());
        assertSame(viaCallSite, MethodMonitorRegistry.monitor(ReaderFixture.class, IORead.class));
        assertSame(ReaderFixture.class, viaCallSite.myClass());

        MethodMonitorRegistry.register(IORead.class, new RecordingFactory("b"));
        assertSame(ReaderFixture.currentMonitor(), ReaderFixture.holderContent());
        assertTrue(viaCallSite != ReaderFixture.currentMonitor(), "a new factory makes a new monitor");
    }

    @Test
    void reRegisteringTheSameFactoryKeepsTheMonitor() {
        RecordingFactory factory = new RecordingFactory("same");
        MethodMonitorRegistry.register(IORead.class, factory);
        MethodMonitor first = ReaderFixture.currentMonitor();
        MethodMonitorRegistry.register(IORead.class, factory);
        assertSame(first, ReaderFixture.currentMonitor());
    }

    @Test
    void methodNamesAndIdentifiersFollowTheSortedList() {
        new ReaderFixture();
        for (int id = 0; id < ReaderFixture.NAMES.length; id++) {
            assertEquals(ReaderFixture.NAMES[id], MethodMonitorRegistry.methodName(ReaderFixture.class, id));
            assertEquals(id, MethodMonitorRegistry.methodIdentifier(ReaderFixture.class, ReaderFixture.NAMES[id]));
        }
        assertEquals(-1, MethodMonitorRegistry.methodIdentifier(ReaderFixture.class, "noSuchMethod"));
        assertThrows(IllegalArgumentException.class, () -> MethodMonitorRegistry.methodName(ReaderFixture.class, 99));
        assertThrows(IllegalArgumentException.class, () -> MethodMonitorRegistry.methodName(String.class, 0));
    }

    @Test
    void theRegistryAnswersOnlyAboutItsClassesAndTheirAnnotations() {
        new ReaderFixture();
        assertThrows(IllegalArgumentException.class,
                () -> MethodMonitorRegistry.monitor(String.class, IORead.class));
        assertThrows(IllegalArgumentException.class,
                () -> MethodMonitorRegistry.monitor(ReaderFixture.class, IOWrite.class));
        IllegalArgumentException notAGroup = assertThrows(IllegalArgumentException.class,
                () -> MethodMonitorRegistry.register(NotAGroup.class, new RecordingFactory("x")));
        assertEquals("org.tracingfacility.runtime.TestGroups$NotAGroup is not a TF annotation: a TF annotation is an"
                + " annotation type that carries @MethodMonitorGroup, or that the @MethodMonitorGroup of a TF"
                + " annotation lists as a subgroup", notAGroup.getMessage());
        assertThrows(NullPointerException.class, () -> MethodMonitorRegistry.register(IO.class, null));
        assertNull(MethodMonitorRegistry.registeredFactory(IO.class));
    }

    @Test
    void aSubgroupWithoutMethodMonitorGroupIsRegisteredByItself() {
        RecordingFactory factory = new RecordingFactory("w");
        MethodMonitorRegistry.register(IOWrite.class, factory);
        new WriterFixture().write("x");
        assertEquals(List.of("w:enter WriterFixture.write[x]", "w:exit WriterFixture.write"), factory.events());
    }

    @Test
    void knownGroupsIncludeClassAnnotationsAndTheirSubgroups() {
        new ReaderFixture();
        assertTrue(MethodMonitorRegistry.knownGroups().containsAll(List.of(IORead.class, Deep.class)));
        assertTrue(MethodMonitorRegistry.registeredClasses().contains(ReaderFixture.class));
    }

    @Test
    void aFailingFactoryLeavesTheClassUnmonitored() {
        MethodMonitorRegistry.register(IORead.class, cls -> {
            throw new IllegalStateException("broken factory");
        });
        assertNull(ReaderFixture.currentMonitor());
        assertEquals(2, new ReaderFixture().readInt(1));
    }

    @Test
    void onlyTheClassItselfCanLinkItsMonitor() {
        MethodType type = MethodType.methodType(MethodMonitor.class);
        assertThrows(IllegalArgumentException.class,
                () -> EnhancedCodeSupport.linkMonitor(MethodHandles.publicLookup(), "monitor", type, IORead.class));
        assertThrows(IllegalArgumentException.class, () -> EnhancedCodeSupport.linkMonitor(MethodHandles.lookup(),
                "monitor", MethodType.methodType(Object.class), IORead.class));
    }

    @Test
    void everyIndyOfAClassAndAnnotationSharesOneCallSite() {
        MethodType type = MethodType.methodType(MethodMonitor.class);
        assertSame(EnhancedCodeSupport.linkMonitor(MethodHandles.lookup(), "monitor", type, IORead.class),
                EnhancedCodeSupport.linkMonitor(MethodHandles.lookup(), "monitor", type, IORead.class));
    }

    @Test
    void redactedMarkerPrintsAsRedacted() {
        assertEquals("<redacted>", String.valueOf(EnhancedCodeSupport.REDACTED));
        assertEquals(0, EnhancedCodeSupport.NO_ARGS.length);
    }

    /** The factory a class of {@code group} would get, through a throwaway class registration. */
    private static MethodMonitorFactory soleFactoryFor(Class<? extends java.lang.annotation.Annotation> group) {
        List<MethodMonitorFactory> factories = GroupResolution.of(MethodMonitorRegistry.registrations()).factoriesFor(group);
        assertEquals(1, factories.size(), "factories for " + group.getSimpleName() + ": " + factories);
        return factories.get(0);
    }
}
