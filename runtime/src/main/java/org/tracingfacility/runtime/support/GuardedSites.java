package org.tracingfacility.runtime.support;

import java.util.List;
import org.tracingfacility.runtime.MethodMonitor;
import org.tracingfacility.runtime.TimingPointType;

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
    private static final MethodMonitor PENDING = new Pending();

    private static final Object LOCK = new Object();
    /** Sites per chunk of the table, a power of two. */
    private static final int CHUNK_BITS = 10;
    private static final int CHUNK_MASK = (1 << CHUNK_BITS) - 1;
    /**
     * The table, in chunks made as reservations reach them and never replaced: what traced code
     * reads is a constant and two plain loads, which the JIT may hoist out of a loop (a volatile
     * table it would read again at every call; with no monitor attached that read was the whole
     * cost of a traced method). Sites are written under {@link #LOCK}; a monitor read without it
     * is safely published by its final fields ({@link GuardedMonitor}, a
     * {@link SelfGuardedMonitor}'s own; {@link Pending} has none).
     */
    private static final MethodMonitor[][] CHUNKS = new MethodMonitor[1 << 12][];
    /** Sites that hold a monitor or the stand-in, counted under {@link #LOCK}. */
    private static int attached;
    /**
     * Whether any site holds a monitor or the stand-in: while none does, a traced method pays
     * one load and a test, not the table's loads and bounds checks. A plain field as the table
     * is, read without the lock; written under it.
     */
    private static boolean anyAttached;
    private static int reserved;

    private GuardedSites() {
    }

    /**
     * The monitor of {@code cls}'s group at {@code site}, or null when none is attached or the
     * current thread is inside monitoring code already. A {@link GuardedMonitor} answered
     * leaves the thread {@linkplain ThreadsAtWork at work} until its {@code enterWithToken}
     * returns (so that boxing the arguments is TF's work too); a {@link SelfGuardedMonitor}
     * is answered as it is, the mark read and not set: it keeps its calls out of traced code
     * itself, and saves every call the two marks (about 12 ns, {@code bench/agent/per-call}).
     */
    public static MethodMonitor monitor(Class<?> cls, int site) {
        if (!anyAttached) {
            return null;
        }
        // Both the site and the table are constants in traced code: the JIT folds the test away.
        int chunkIndex = site >>> CHUNK_BITS;
        MethodMonitor[] chunk = chunkIndex < CHUNKS.length ? CHUNKS[chunkIndex] : null;
        MethodMonitor monitor = chunk == null ? null : chunk[site & CHUNK_MASK];
        if (monitor == null) {
            return null;
        }
        // GuardedMonitor is final: the test is one compare of the monitor's class.
        if (!(monitor instanceof GuardedMonitor) && monitor != PENDING) {
            return ThreadsAtWork.isAtWork() ? null : monitor;
        }
        if (!ThreadsAtWork.enterIfIdle()) {
            return null;
        }
        if (monitor == PENDING) {
            monitor = registered(cls, site);
            // Only a GuardedMonitor's enterWithToken ends the work begun here.
            if (!(monitor instanceof GuardedMonitor)) {
                ThreadsAtWork.leave();
            }
        }
        return monitor;
    }

    /** Registers {@code cls} as declared at {@code site} (at work); its monitor there, or null. */
    private static MethodMonitor registered(Class<?> cls, int site) {
        try {
            RegistryBridge.installed().registerGuarded(cls, site);
        } catch (ClassNotFoundException | RuntimeException | LinkageError e) {
            // Never the application's failure: the class stays unmonitored, once said.
            put(site, null);
            System.err.println("TF: " + cls.getName() + " could not be registered; it stays unmonitored: " + e);
            return null;
        }
        MethodMonitor monitor = at(site);
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
            if (end > CHUNKS.length << CHUNK_BITS) {
                throw new IllegalStateException("more than " + (CHUNKS.length << CHUNK_BITS) + " traced sites");
            }
            for (int chunk = first >>> CHUNK_BITS; chunk <= (end - 1) >>> CHUNK_BITS; chunk++) {
                if (CHUNKS[chunk] == null) {
                    CHUNKS[chunk] = new MethodMonitor[1 << CHUNK_BITS];
                }
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
            RegistryBridge.installed().declareGuarded(firstSite, groups, tracingNames);
        } finally {
            if (recorded) {
                ThreadsAtWork.leave();
            }
        }
    }

    /** The monitor at a reserved site. */
    private static MethodMonitor at(int site) {
        synchronized (LOCK) {
            return CHUNKS[site >>> CHUNK_BITS][site & CHUNK_MASK];
        }
    }

    /**
     * Puts {@code monitor} at {@code site}, behind the guard every guarded site's monitor runs
     * in unless it guards itself, or empties the site ({@code monitor} null). For the
     * registry, not for users.
     *
     * @param monitor the factory's monitor as created, not wrapped in the registry's reentry
     *     guard (this guard keeps the same per-thread mark), or null
     */
    public static void publish(int site, MethodMonitor monitor) {
        put(site, monitor == null ? null : guarded(monitor));
    }

    /**
     * {@code monitor} as a site holds it: as it is when it is a {@link SelfGuardedMonitor}
     * that wants no arguments (boxing them would run JDK code outside any mark), else
     * {@link GuardedMonitor} around it.
     */
    static MethodMonitor guarded(MethodMonitor monitor) {
        if (monitor instanceof SelfGuardedMonitor && !monitor.wantsArguments()) {
            return monitor;
        }
        return new GuardedMonitor(monitor);
    }

    /**
     * Puts the stand-in at {@code site}: a factory may apply to its class, which has not
     * registered yet; the first call of a traced method registers it. For the registry.
     */
    public static void publishPending(int site) {
        put(site, PENDING);
    }

    private static void put(int site, MethodMonitor monitor) {
        synchronized (LOCK) {
            if (site >= 0 && site < reserved) {
                MethodMonitor[] chunk = CHUNKS[site >>> CHUNK_BITS];
                int index = site & CHUNK_MASK;
                attached += (monitor != null ? 1 : 0) - (chunk[index] != null ? 1 : 0);
                chunk[index] = monitor;
                anyAttached = attached > 0;
            }
        }
    }

    /** The stand-in at a declared site: a monitor no traced method is ever handed. */
    private static final class Pending implements MethodMonitor {
        @Override
        public Class<?> myClass() {
            return GuardedSites.class;
        }

        @Override
        public void enter(int ident, Object... args) {
        }

        @Override
        public void info(Object[] args, int callerIdent, int selfIdent, TimingPointType tpType) {
        }

        @Override
        public void exit(int ident) {
        }

        @Override
        public void exit(int ident, Object result) {
        }

        @Override
        public void exception(int ident, Throwable thr) {
        }

        @Override
        public void clear() {
        }

        @Override
        public boolean wantsArguments() {
            return false;
        }
    }
}
