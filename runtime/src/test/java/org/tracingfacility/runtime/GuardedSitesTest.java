package org.tracingfacility.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.tracingfacility.annotation.Filtered;
import org.tracingfacility.runtime.support.EnhancedCodeSupport;
import org.tracingfacility.runtime.support.GuardedSites;
import org.tracingfacility.runtime.support.ThreadsAtWork;
import org.tracingfacility.runtime.timing.TimingFactory;
import org.tracingfacility.runtime.timing.TimingReport;

/**
 * The guarded sites as a class the agent traced uses them (its methods call
 * {@code GuardedSites.monitor(its class, site)} first): registration on the first call from
 * what the agent declared, a null answer without a monitor, and none while the thread is at
 * work, so a monitor that calls traced code never reaches a monitor again.
 */
class GuardedSitesTest {
    /** Stands for a class the agent traced: its methods are 0 "outer" and 1 "inner". */
    static final class Traced {
    }

    /** What a monitor saw, and what the guard answered when it called traced code itself. */
    private final List<String> events = new ArrayList<>();

    @AfterEach
    void clear() {
        MethodMonitorRegistry.clear(Filtered.class);
        MethodMonitorRegistry.clear(TestGroups.Audit.class);
    }

    /** A method of {@link Traced}, as the guarded shape writes it. */
    private long call(int site, int ident) {
        MethodMonitor monitor = GuardedSites.monitor(Traced.class, site);
        if (monitor == null) {
            return -1;
        }
        long token = monitor.enterWithToken(ident, EnhancedCodeSupport.NO_ARGS);
        monitor.exitWithToken(ident, token);
        return token;
    }

    @Test
    void aDeclaredClassRegistersOnItsFirstCallAndItsMonitorNeverReachesAMonitorAgain() {
        int site = GuardedSites.reserve(1);
        GuardedSites.declare(site, List.of(Filtered.class.getName()), List.of("outer", "inner"));
        assertEquals(-1, call(site, 0), "no monitor attached: the site answers null");

        MethodMonitorRegistry.register(Filtered.class, cls -> new Recording(cls, site));
        assertEquals(7, call(site, 0));
        assertEquals(List.of("enter outer (at work: true, nested: -1)", "exit outer"), events);
        assertFalse(ThreadsAtWork.isAtWork(), "the enter left the thread idle again");
        assertEquals(List.of("outer", "inner"), MethodMonitorRegistry.methodNames(Traced.class));

        MethodMonitorRegistry.clear(Filtered.class);
        assertEquals(-1, call(site, 1), "cleared: the site answers null again");
    }

    @Test
    void atWorkNestsAndEndsAtTheOutermostLeave() {
        assertFalse(ThreadsAtWork.isAtWork());
        assertTrue(ThreadsAtWork.enterIfIdle());
        assertFalse(ThreadsAtWork.enterIfIdle(), "already at work");
        assertTrue(ThreadsAtWork.enter());
        ThreadsAtWork.leave();
        assertTrue(ThreadsAtWork.isAtWork(), "one level still open");
        ThreadsAtWork.leave();
        assertFalse(ThreadsAtWork.isAtWork());
    }

    @Test
    void anotherThreadAtWorkDoesNotSilenceThisOne() throws Exception {
        int site = GuardedSites.reserve(1);
        GuardedSites.declare(site, List.of(Filtered.class.getName()), List.of("outer", "inner"));
        MethodMonitorRegistry.register(Filtered.class, cls -> new Recording(cls, site));
        Thread other = new Thread(ThreadsAtWork::enter);
        other.start();
        other.join();
        MethodMonitor monitor = GuardedSites.monitor(Traced.class, site);
        assertNotNull(monitor);
        monitor.enterWithToken(1, EnhancedCodeSupport.NO_ARGS);
        assertFalse(ThreadsAtWork.isAtWork());
        assertNull(GuardedSites.monitor(Traced.class, Integer.MAX_VALUE), "a site never reserved answers null");
    }

    /**
     * While no site anywhere holds a monitor, every site answers null at once (one test, not the
     * table's loads): what one group's sites hold must not be forgotten when another group's
     * monitors come and go, however often they are replaced.
     */
    @Test
    void oneGroupsSitesKeepAnsweringWhileAnothersComeAndGo() {
        int filtered = GuardedSites.reserve(2);
        GuardedSites.declare(filtered, List.of(Filtered.class.getName(), TestGroups.Audit.class.getName()),
                List.of("outer", "inner"));
        int audit = filtered + 1;
        assertNull(GuardedSites.monitor(Traced.class, filtered), "nothing attached");

        MethodMonitorRegistry.register(TestGroups.Audit.class, NoOpMonitor::new);
        MethodMonitorRegistry.register(Filtered.class, NoOpMonitor::new);
        MethodMonitorRegistry.register(Filtered.class, NoOpMonitor::new); // replaced: counted once
        assertMonitor(audit);
        assertMonitor(filtered);

        MethodMonitorRegistry.clear(Filtered.class);
        assertNull(GuardedSites.monitor(Traced.class, filtered));
        assertMonitor(audit);

        MethodMonitorRegistry.clear(TestGroups.Audit.class);
        assertNull(GuardedSites.monitor(Traced.class, audit));
        MethodMonitorRegistry.register(Filtered.class, NoOpMonitor::new);
        assertMonitor(filtered);
    }

    /**
     * {@code timing} guards its own slow paths, so a site hands it out without setting the
     * mark: every call is counted, the thread is left idle after each (the first one
     * registers the class at work), and while the thread is at work for other reasons the
     * site still answers null.
     */
    @Test
    void aSelfGuardedMonitorCountsEveryCallAndLeavesTheThreadIdle() throws Exception {
        int site = GuardedSites.reserve(1);
        GuardedSites.declare(site, List.of(Filtered.class.getName()), List.of("outer", "inner"));
        TimingFactory timing = new TimingFactory();
        MethodMonitorRegistry.register(Filtered.class, timing);
        for (int i = 0; i < 3; i++) {
            call(site, 0);
            assertFalse(ThreadsAtWork.isAtWork(), "call " + i + " left the thread at work");
        }
        assertTrue(ThreadsAtWork.enter());
        assertEquals(-1, call(site, 0), "at work: the site answers null");
        ThreadsAtWork.leave();
        // A second thread: its first call takes the slow way, at work, and leaves it idle.
        Thread other = new Thread(() -> {
            call(site, 0);
            events.add("other idle: " + !ThreadsAtWork.isAtWork());
        });
        other.start();
        other.join();
        assertEquals(List.of("other idle: true"), events);
        TimingReport.Row outer = timing.report().row(Traced.class.getName() + ".outer");
        assertNotNull(outer, timing.report().toString());
        assertEquals(4, outer.invocations(), timing.report().toString());
    }

    /**
     * A thread that cannot be marked at work (every slot it could take is held: here filled
     * by hand) must not run a self-guarded monitor's slow path, which would then reach
     * monitors from JDK code: its events are dropped, as a guarded site drops them, and
     * counted again once it can be marked.
     */
    @Test
    void withNoSlotToMarkAThreadASelfGuardedMonitorDropsItsFirstEventsInsteadOfRunningUnmarked()
            throws Exception {
        int site = GuardedSites.reserve(1);
        GuardedSites.declare(site, List.of(Filtered.class.getName()), List.of("outer", "inner"));
        TimingFactory timing = new TimingFactory();
        MethodMonitorRegistry.register(Filtered.class, timing);
        call(site, 0); // registers the class, counted
        java.lang.reflect.Field field = ThreadsAtWork.class.getDeclaredField("KEYS");
        field.setAccessible(true);
        int[] keys = (int[]) field.get(null);
        int[] saved = keys.clone();
        List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
        Thread crowded = new Thread(() -> {
            try {
                call(site, 0);
                call(site, 0);
            } catch (Throwable e) {
                failures.add(e);
            }
        });
        java.util.Arrays.fill(keys, -1); // a key no thread here has (asserted below)
        try {
            crowded.start();
            crowded.join();
        } finally {
            System.arraycopy(saved, 0, keys, 0, keys.length);
        }
        assertTrue(failures.isEmpty(), failures.toString());
        assertTrue((System.identityHashCode(crowded) | Integer.MIN_VALUE) != -1);
        String outer = Traced.class.getName() + ".outer";
        assertEquals(1, timing.report().row(outer).invocations(),
                "the crowded thread's calls ran the slow path unmarked: " + timing.report());
        Thread roomy = new Thread(() -> call(site, 0));
        roomy.start();
        roomy.join();
        assertEquals(2, timing.report().row(outer).invocations(), timing.report().toString());
    }

    private static void assertMonitor(int site) {
        MethodMonitor monitor = GuardedSites.monitor(Traced.class, site);
        assertNotNull(monitor, "site " + site + " answers its monitor");
        ThreadsAtWork.leave(); // as the monitor's enterWithToken would
    }

    /** Records events; at entry, calls the traced method itself, as a monitor calling JDK code would. */
    private final class Recording extends NoOpMonitor {
        private final int site;

        Recording(Class<?> cls, int site) {
            super(cls);
            this.site = site;
        }

        @Override
        public long enterWithToken(int ident, Object... args) {
            long nested = call(site, 1);
            events.add("enter " + MethodMonitorRegistry.methodName(Traced.class, ident) + " (at work: "
                    + ThreadsAtWork.isAtWork() + ", nested: " + nested + ")");
            return 7;
        }

        @Override
        public void exitWithToken(int ident, long token) {
            events.add("exit " + MethodMonitorRegistry.methodName(Traced.class, ident));
        }
    }
}
