package org.tracingfacility.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.tracingfacility.runtime.TestGroups.Nesting;
import org.tracingfacility.runtime.timing.TimingFactory;
import org.tracingfacility.runtime.timing.TimingReport;

/**
 * The token of {@code enterWithToken} reaches the same invocation's {@code exitWithToken} on
 * every path, for monitors that override the token methods and for monitors that keep the
 * defaults (which see plain {@code enter} and {@code exit}).
 */
@ExtendWith(RegistryCleanup.class)
class TokenProtocolTest {
    private static final String DEPTH = "org.tracingfacility.runtime.NestingFixture.depth(int,long)";
    private static final String FAIL = "org.tracingfacility.runtime.NestingFixture.fail(String)";

    /** Hands out 1, 2, 3, … as tokens and records which exit got which. */
    static final class TokenRecorder implements MethodMonitor {
        final List<String> events = new ArrayList<>();
        private final Class<?> cls;
        private long next = 1;

        TokenRecorder(Class<?> cls) {
            this.cls = cls;
        }

        @Override
        public long enterWithToken(int ident, Object... args) {
            long token = next++;
            events.add("enter " + name(ident) + Arrays.toString(args) + " #" + token);
            return token;
        }

        @Override
        public void exitWithToken(int ident, long token) {
            events.add("exit " + name(ident) + " #" + token);
        }

        @Override
        public void exitWithToken(int ident, Object result, long token) {
            events.add("exit " + name(ident) + "=" + result + " #" + token);
        }

        @Override
        public Class<?> myClass() {
            return cls;
        }

        @Override
        public void enter(int ident, Object... args) {
            events.add("plain enter " + name(ident));
        }

        @Override
        public void info(Object[] args, int callerIdent, int selfIdent, TimingPointType tpType) {
            events.add("info " + name(selfIdent));
        }

        @Override
        public void exit(int ident) {
            events.add("plain exit " + name(ident));
        }

        @Override
        public void exit(int ident, Object result) {
            events.add("plain exit " + name(ident));
        }

        @Override
        public void exception(int ident, Throwable thr) {
            events.add("exception " + name(ident) + " " + thr.getMessage());
        }

        @Override
        public void clear() {
            events.clear();
        }

        private String name(int ident) {
            return MethodMonitorRegistry.methodName(cls, ident);
        }
    }

    private static TokenRecorder registerTokenRecorder() {
        List<TokenRecorder> created = new ArrayList<>();
        MethodMonitorRegistry.register(Nesting.class, cls -> {
            TokenRecorder monitor = new TokenRecorder(cls);
            created.add(monitor);
            return monitor;
        });
        new NestingFixture(); // initializes the class: the registry creates its monitor
        assertEquals(1, created.size());
        return created.get(0);
    }

    @Test
    void eachExitGetsItsOwnInvocationsTokenThroughRecursion() throws Exception {
        TokenRecorder recorder = registerTokenRecorder();
        new NestingFixture().depth(2, 0);
        assertEquals(List.of(
                "enter depth[2, 0] #1",
                "enter depth[1, 0] #2",
                "enter depth[0, 0] #3",
                "exit depth=0 #3",
                "exit depth=1 #2",
                "exit depth=2 #1"), recorder.events);
    }

    @Test
    void theTokenReachesTheExitOfAnInvocationEndedByAThrowable() {
        TokenRecorder recorder = registerTokenRecorder();
        assertThrows(IllegalStateException.class, () -> new NestingFixture().depth(1, -1));
        assertThrows(IllegalStateException.class, () -> new NestingFixture().fail("out"));
        assertEquals(List.of(
                "enter depth[1, -1] #1",
                "enter depth[0, -1] #2",
                "exception depth leaf",
                "exit depth=null #2",
                "exception depth leaf",
                "exit depth=null #1",
                "enter fail[out] #3",
                "exception fail out",
                "exit fail #3"), recorder.events);
    }

    @Test
    void aThrowableCaughtByTheCallerLeavesTheCallersTokenAlone() throws Exception {
        TokenRecorder recorder = registerTokenRecorder();
        assertEquals(1, new NestingFixture().survive());
        assertEquals(List.of(
                "enter survive[] #1",
                "enter fail[inner] #2",
                "exception fail inner",
                "exit fail #2",
                "enter depth[1, 0] #3",
                "enter depth[0, 0] #4",
                "exit depth=0 #4",
                "exit depth=1 #3",
                "exit survive=1 #1"), recorder.events);
    }

    @Test
    void aMonitorWithoutTokenMethodsSeesPlainEnterAndExit() throws Exception {
        RecordingFactory recording = new RecordingFactory("r");
        MethodMonitorRegistry.register(Nesting.class, recording);
        NestingFixture fixture = new NestingFixture();
        fixture.depth(1, 0);
        assertThrows(IllegalStateException.class, () -> fixture.fail("out"));
        assertEquals(List.of(
                "r:enter NestingFixture.depth[1, 0]",
                "r:enter NestingFixture.depth[0, 0]",
                "r:exit NestingFixture.depth=0",
                "r:exit NestingFixture.depth=1",
                "r:enter NestingFixture.fail[out]",
                "r:exception NestingFixture.fail out",
                "r:exit NestingFixture.fail"), recording.events());
    }

    @Test
    void theDefaultTokenMethodsCallEnterAndExitAndReturnZero() {
        RecordingFactory recording = new RecordingFactory("d");
        MethodMonitor monitor = recording.create(NestingFixture.class);
        assertEquals(0L, monitor.enterWithToken(NestingFixture.DEPTH, 1, 2L));
        monitor.exitWithToken(NestingFixture.FAIL, 42L);
        monitor.exitWithToken(NestingFixture.DEPTH, "r", 42L);
        assertEquals(List.of("d:enter NestingFixture.depth[1, 2]", "d:exit NestingFixture.fail",
                "d:exit NestingFixture.depth=r"), recording.events());
    }

    @Test
    void timingMeasuresEachLevelOfARecursionFromItsOwnToken() throws Exception {
        TimingFactory timing = new TimingFactory();
        MethodMonitorRegistry.register(Nesting.class, timing);
        new NestingFixture().depth(2, 20);
        TimingReport.Row row = timing.report().row(DEPTH);
        assertEquals(3, row.invocations(), timing.report().toString());
        long sleep = TimeUnit.MILLISECONDS.toNanos(20);
        assertTrue(row.minimumNanos() >= sleep, "every level contains the sleep: " + timing.report());
        assertTrue(row.totalNanos() >= 3 * sleep, timing.report().toString());
    }

    @Test
    void timingCountsInvocationsEndedByAThrowable() {
        TimingFactory timing = new TimingFactory();
        MethodMonitorRegistry.register(Nesting.class, timing);
        NestingFixture fixture = new NestingFixture();
        for (int i = 0; i < 3; i++) {
            assertThrows(IllegalStateException.class, () -> fixture.fail("x"));
        }
        assertThrows(IllegalStateException.class, () -> fixture.depth(2, -1));
        TimingReport report = timing.report();
        assertEquals(3, report.row(FAIL).invocations(), report.toString());
        assertEquals(3, report.row(FAIL).timedInvocations(), report.toString());
        assertEquals(3, report.row(DEPTH).invocations(), report.toString());
    }

    @Test
    void sampledTimingPassesUntimedInvocationsInTheToken() throws Exception {
        TimingFactory sampling = new TimingFactory(3);
        MethodMonitorRegistry.register(Nesting.class, sampling);
        NestingFixture fixture = new NestingFixture();
        for (int i = 0; i < 4; i++) {
            fixture.depth(2, 0); // 12 invocations, nested three deep
        }
        TimingReport.Row row = sampling.report().row(DEPTH);
        assertEquals(12, row.invocations());
        assertEquals(4, row.timedInvocations());
    }

    @Test
    void timingInsideACompositeUsesPlainEnterAndExit() throws Exception {
        TimingFactory timing = new TimingFactory();
        RecordingFactory recording = new RecordingFactory("c");
        MethodMonitorRegistry.register(Nesting.class, MethodMonitorFactoryDefaults.compose(List.of(timing, recording)));
        new NestingFixture().depth(2, 20);
        assertThrows(IllegalStateException.class, () -> new NestingFixture().fail("x"));
        TimingReport report = timing.report();
        assertEquals(3, report.row(DEPTH).invocations(), report.toString());
        assertTrue(report.row(DEPTH).minimumNanos() >= TimeUnit.MILLISECONDS.toNanos(20), report.toString());
        assertEquals(1, report.row(FAIL).invocations(), report.toString());
        assertEquals(9, recording.events().size(), recording.events().toString());
    }
}
