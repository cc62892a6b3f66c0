package org.tracingfacility.runtime;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import org.tracingfacility.runtime.support.EnhancedCodeSupport;
import org.tracingfacility.runtime.support.SynchronizedHolder;

/**
 * An enhanced class whose {@code toString} is monitored and calls another monitored method
 * whose result is the item itself, written by hand as the enhancer would produce it from:
 * <pre>
 * &#64;Items class ItemFixture {
 *     ItemFixture self() { return this; }
 *     public String toString() { return "item " + self().name; }
 * }
 * </pre>
 * A monitor that formats results with {@code toString} and is re-entered by it recurses
 * without end: formatting {@code self()}'s result calls {@code toString}, which calls
 * {@code self()}, whose result is formatted again (as Lucene's {@code CharArrayMap} does
 * through {@code entrySet}).
 */
@TestGroups.Items
final class ItemFixture {
    static final int SELF = 0;
    static final int TO_STRING = 1;

    private static final SynchronizedHolder<MethodMonitor> HOLDER = new SynchronizedHolder<>();
    private static final MethodHandles.Lookup LOOKUP = MethodHandles.lookup();

    static {
        EnhancedCodeSupport.registerClass(ItemFixture.class, GeneratedCode.joined("self", "toString"),
                new Class<?>[] {TestGroups.Items.class}, new SynchronizedHolder<?>[] {HOLDER});
    }

    /** Linked on first use, like an invokedynamic instruction. */
    private static final class Site {
        static final MethodHandle MONITOR = GeneratedCode.link(LOOKUP, TestGroups.Items.class);
    }

    private final String name;

    ItemFixture(String name) {
        this.name = name;
    }

    static MethodMonitor currentMonitor() {
        return GeneratedCode.monitor(Site.MONITOR);
    }

    ItemFixture self() {
        MethodMonitor mm = GeneratedCode.monitor(Site.MONITOR);
        long token = 0L;
        if (mm != null) {
            token = mm.enterWithToken(SELF, EnhancedCodeSupport.NO_ARGS);
        }
        ItemFixture result = this;
        if (mm != null) {
            EnhancedCodeSupport.returned(mm, SELF, result, token);
        }
        return result;
    }

    @Override
    public String toString() {
        MethodMonitor mm = GeneratedCode.monitor(Site.MONITOR);
        long token = 0L;
        if (mm != null) {
            token = mm.enterWithToken(TO_STRING, EnhancedCodeSupport.NO_ARGS);
        }
        String result;
        try {
            result = "item " + self().name;
        } catch (Throwable t) {
            EnhancedCodeSupport.failedWithResult(t, null, mm, TO_STRING, token);
            throw t;
        }
        if (mm != null) {
            EnhancedCodeSupport.returned(mm, TO_STRING, result, token);
        }
        return result;
    }
}
