package org.tracingfacility.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.invoke.CallSite;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The bootstrap of classes an agent retransformed: its arguments register the class on the
 * first link, once, whichever group links first and however many threads link at once.
 */
@ExtendWith(RegistryCleanup.class)
class LinkRetransformedTest {
    private static final MethodType MONITOR = MethodType.methodType(MethodMonitor.class);

    /** Stands for a retransformed class: its own lookup, as its invokedynamic has. */
    static final class Retransformed {
        static MethodHandles.Lookup lookup() {
            return MethodHandles.lookup();
        }
    }

    /** Another, for the concurrent links (a class registers once per JVM). */
    static final class RetransformedConcurrently {
        static MethodHandles.Lookup lookup() {
            return MethodHandles.lookup();
        }
    }

    private static CallSite link(MethodHandles.Lookup lookup, Class<?> group) {
        return EnhancedCodeSupport.linkRetransformed(lookup, "monitor", MONITOR, group, 2,
                TestGroups.Audit.class, TestGroups.IO.class, "read", "write");
    }

    @Test
    void theFirstLinkRegistersTheClassAndLaterLinksKeepItsMonitors() throws Throwable {
        MethodMonitorRegistry.register(TestGroups.IO.class, NoOpMonitor::new);
        CallSite io = link(Retransformed.lookup(), TestGroups.IO.class);
        Class<?> cls = Retransformed.class;
        assertEquals(List.of("read", "write"), MethodMonitorRegistry.getMethodNames(cls));
        assertEquals(List.of(TestGroups.Audit.class, TestGroups.IO.class), MethodMonitorRegistry.getGroups(cls));
        MethodMonitor monitor = (MethodMonitor) io.getTarget().invoke();
        assertNotNull(monitor, "registered on IO: the call site holds its monitor");
        assertSame(monitor, MethodMonitorRegistry.getMethodMonitorForClass(cls, TestGroups.IO.class));

        CallSite audit = link(Retransformed.lookup(), TestGroups.Audit.class);
        assertNull(audit.getTarget().invoke(), "nothing registered on Audit");
        assertSame(io, link(Retransformed.lookup(), TestGroups.IO.class), "one call site per class and group");
        assertSame(monitor, io.getTarget().invoke(), "a second link keeps the class's monitor");
    }

    @Test
    void threadsLinkingAtOnceRegisterTheClassOnce() throws Exception {
        MethodMonitorRegistry.register(TestGroups.IO.class, NoOpMonitor::new);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Object>> monitors = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                monitors.add(pool.submit(() -> {
                    start.await();
                    try {
                        return link(RetransformedConcurrently.lookup(), TestGroups.IO.class).getTarget().invoke();
                    } catch (Throwable t) {
                        throw new AssertionError(t);
                    }
                }));
            }
            start.countDown();
            Object first = monitors.get(0).get();
            for (Future<Object> monitor : monitors) {
                assertSame(first, monitor.get(), "every thread gets the one monitor");
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void theJvmCollectsTheGroupsAndNamesIntoTheVarargs() throws NoSuchMethodException {
        assertTrue(EnhancedCodeSupport.class.getMethod("linkRetransformed", MethodHandles.Lookup.class,
                String.class, MethodType.class, Class.class, int.class, Object[].class).isVarArgs());
    }

    @Test
    void aGroupCountBeyondTheArgumentsIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> EnhancedCodeSupport.linkRetransformed(Retransformed.lookup(), "monitor", MONITOR,
                        TestGroups.IO.class, 3, TestGroups.IO.class));
        assertTrue(e.getMessage().contains("3 groups in 1 arguments"), e.getMessage());
    }
}
