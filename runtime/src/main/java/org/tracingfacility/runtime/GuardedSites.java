package org.tracingfacility.runtime;

import java.util.List;

/**
 * Where the classes the agent traced find their monitors: a table of sites, one per traced
 * class and TF group, which the agent reserves and declares before the JVM defines the class
 * and the registry fills. Called by enhanced code and the agent only; not for users.
 *
 * <p>A traced method (the guarded shape, {@code rust-core/src/tracegen/guarded.rs}) starts with
 * {@code ldc <its class>; push <site>; invokestatic GuardedSites.monitor}: nothing to link when
 * it first runs, so that any JDK method can be traced without the JVM's linking (which runs
 * {@code java.lang.invoke} code) ever entering traced code first. With no monitor attached the
 * site is null and the method pays a load and a test. A site whose class has not registered
 * yet holds a stand-in while a factory may apply; the first call registers the class (its
 * groups and tracing names as declared) and puts its monitor in the site.
 */
public final class GuardedSites {
    /** At a declared site while a factory may apply: the first call registers the class. */
    static final MethodMonitor PENDING = new NoOpMonitor(GuardedSites.class);

    private static final Object LOCK = new Object();
    /** Replaced, never shrunk, when reservations outgrow it; guarded by {@link #LOCK} for writes. */
    private static volatile MethodMonitor[] sites = new MethodMonitor[1024];
    private static int reserved;

    private GuardedSites() {
    }

    /**
     * The monitor of {@code cls}'s group at {@code site}, or null when none is attached or the
     * current thread is inside monitoring code already. A monitor answered leaves the thread
     * {@linkplain ThreadsAtWork at work} until its {@code enterWithToken} returns (so that
     * boxing the arguments is TF's work too).
     */
    public static MethodMonitor monitor(Class<?> cls, int site) {
        MethodMonitor[] table = sites;
        MethodMonitor monitor = site < table.length ? table[site] : null;
        if (monitor == null || !ThreadsAtWork.enterIfIdle()) {
            return null;
        }
        if (monitor == PENDING) {
            monitor = registered(cls, site);
            if (monitor == null) {
                ThreadsAtWork.leave();
            }
        }
        return monitor;
    }

    /** Registers {@code cls} as declared at {@code site} (at work); its monitor there, or null. */
    private static MethodMonitor registered(Class<?> cls, int site) {
        try {
            MethodMonitorRegistry.registry().registerGuarded(cls, site);
        } catch (ClassNotFoundException | RuntimeException | LinkageError e) {
            // Never the application's failure: the class stays unmonitored, once said.
            publish(site, null);
            System.err.println("TF: " + cls.getName() + " could not be registered; it stays unmonitored: " + e);
            return null;
        }
        MethodMonitor monitor = sites[site];
        return monitor == PENDING ? null : monitor;
    }

    /**
     * Reserves {@code count} consecutive sites for one class about to be traced.
     *
     * @return the first
     */
    public static int reserve(int count) {
        synchronized (LOCK) {
            int first = reserved;
            int end = Math.addExact(first, count);
            MethodMonitor[] table = sites;
            if (end > table.length) {
                MethodMonitor[] larger = new MethodMonitor[Math.max(end, table.length * 2)];
                System.arraycopy(table, 0, larger, 0, table.length);
                sites = larger;
            }
            reserved = end;
            return first;
        }
    }

    /**
     * Declares what the class traced at {@code firstSite} on will register when it first runs:
     * its TF groups (binary names; the {@code i}-th at {@code firstSite + i}) and its tracing
     * names (a name's index is its identifier), as the core's report gave them.
     */
    public static void declare(int firstSite, List<String> groups, List<String> tracingNames) {
        boolean recorded = ThreadsAtWork.enter();
        try {
            MethodMonitorRegistry.registry().declareGuarded(firstSite, groups, tracingNames);
        } finally {
            if (recorded) {
                ThreadsAtWork.leave();
            }
        }
    }

    /** Puts {@code monitor} (guarded, unless null or the stand-in) at {@code site}. */
    static void publish(int site, MethodMonitor monitor) {
        synchronized (LOCK) {
            MethodMonitor[] table = sites;
            if (site >= 0 && site < table.length) {
                table[site] = monitor == null || monitor == PENDING ? monitor
                        : new GuardedMonitor(ReentryGuard.unguarded(monitor));
            }
        }
    }
}
