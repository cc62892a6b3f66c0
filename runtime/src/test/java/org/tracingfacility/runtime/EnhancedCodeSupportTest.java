package org.tracingfacility.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tracingfacility.runtime.support.EnhancedCodeSupport;

/**
 * The exits that generated code leaves to {@link EnhancedCodeSupport}: what a monitor sees from
 * {@code returned} and {@code failed}, with and without wanting values.
 */
class EnhancedCodeSupportTest {
    /** Records the token protocol's calls as text, and the results as they arrive. */
    static class Recorder implements MethodMonitor {
        final boolean wantsArguments;
        final List<String> events = new ArrayList<>();
        final List<Object> results = new ArrayList<>();

        Recorder(boolean wantsArguments) {
            this.wantsArguments = wantsArguments;
        }

        @Override
        public boolean wantsArguments() {
            return wantsArguments;
        }

        @Override
        public void exitWithToken(int ident, long token) {
            events.add("exit " + ident + " token " + token);
        }

        @Override
        public void exitWithToken(int ident, Object result, long token) {
            events.add("exit " + ident + " " + result + " token " + token);
            results.add(result);
        }

        @Override
        public void exception(int ident, Throwable thr) {
            events.add("exception " + ident + " " + thr.getMessage());
        }

        @Override
        public Class<?> myClass() {
            return EnhancedCodeSupportTest.class;
        }

        @Override
        public void enter(int ident, Object... args) {
            throw new AssertionError("not called by these helpers");
        }

        @Override
        public void info(Object[] args, int callerIdent, int selfIdent, TimingPointType tpType) {
            throw new AssertionError("not called by these helpers");
        }

        @Override
        public void exit(int ident) {
            throw new AssertionError("exitWithToken is overridden");
        }

        @Override
        public void exit(int ident, Object result) {
            throw new AssertionError("exitWithToken is overridden");
        }

        @Override
        public void clear() {
        }
    }

    @Test
    void returnedBoxesEachKindOfResultAsItsOwnWrapper() {
        Recorder monitor = new Recorder(true);
        Object reference = new Object();
        EnhancedCodeSupport.returned(monitor, 1, true, 10L);
        EnhancedCodeSupport.returned(monitor, 2, (byte) -2, 20L);
        EnhancedCodeSupport.returned(monitor, 3, 'c', 30L);
        EnhancedCodeSupport.returned(monitor, 4, (short) 4, 40L);
        EnhancedCodeSupport.returned(monitor, 5, 5, 50L);
        EnhancedCodeSupport.returned(monitor, 6, 6L, 60L);
        EnhancedCodeSupport.returned(monitor, 7, 7.5f, 70L);
        EnhancedCodeSupport.returned(monitor, 8, 8.25, 80L);
        EnhancedCodeSupport.returned(monitor, 9, reference, 90L);
        assertEquals(List.of(true, (byte) -2, 'c', (short) 4, 5, 6L, 7.5f, 8.25, reference), monitor.results);
        assertEquals("exit 1 true token 10", monitor.events.get(0));
        assertEquals("exit 8 8.25 token 80", monitor.events.get(7));
        assertSame(reference, monitor.results.get(8));
    }

    @Test
    void returnedPassesNullToAMonitorThatWantsNoValues() {
        Recorder monitor = new Recorder(false);
        EnhancedCodeSupport.returned(monitor, 5, 42, 7L);
        EnhancedCodeSupport.returned(monitor, 6, "text", 8L);
        assertEquals(List.of("exit 5 null token 7", "exit 6 null token 8"), monitor.events);
    }

    @Test
    void failedReportsANewThrowableThenExits() {
        Recorder monitor = new Recorder(true);
        EnhancedCodeSupport.failed(new IllegalStateException("new"), null, monitor, 3, 11L);
        EnhancedCodeSupport.failedWithResult(new IllegalStateException("other"), null, monitor, 4, 12L);
        assertEquals(List.of("exception 3 new", "exit 3 token 11", "exception 4 other", "exit 4 null token 12"),
                monitor.events);
    }

    @Test
    void failedDoesNotReportAgainWhatTheThrowSiteReported() {
        Recorder monitor = new Recorder(true);
        RuntimeException reported = new RuntimeException("reported");
        EnhancedCodeSupport.failed(reported, reported, monitor, 3, 11L);
        EnhancedCodeSupport.failedWithResult(reported, reported, monitor, 4, 12L);
        assertEquals(List.of("exit 3 token 11", "exit 4 null token 12"), monitor.events);
    }

    @Test
    void failedWithoutAMonitorDoesNothing() {
        // A monitored method without a monitor (the disabled path) failing inside a monitor's
        // exit, where the ending throwable is the outer method's: nothing reported, the outer
        // ending throwable left as it was, none left behind afterwards.
        RuntimeException outer = new RuntimeException("outer");
        List<Throwable> ending = new ArrayList<>();
        Recorder monitor = new Recorder(true) {
            @Override
            public void exitWithToken(int ident, long token) {
                ending.add(EnhancedCodeSupport.endingThrowable());
                EnhancedCodeSupport.failed(new RuntimeException("nested"), null, null, 7, 0L);
                EnhancedCodeSupport.failedWithResult(new RuntimeException("nested"), null, null, 8, 0L);
                ending.add(EnhancedCodeSupport.endingThrowable());
                super.exitWithToken(ident, token);
            }
        };
        EnhancedCodeSupport.failed(outer, null, monitor, 3, 11L);
        assertEquals(List.of(outer, outer), ending);
        assertEquals(List.of("exception 3 outer", "exit 3 token 11"), monitor.events);
        assertNull(EnhancedCodeSupport.endingThrowable());
    }
}
