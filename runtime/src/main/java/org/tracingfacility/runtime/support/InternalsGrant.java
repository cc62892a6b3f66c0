package org.tracingfacility.runtime.support;

/**
 * The agent's grant of JDK internals to the runtime: {@code jdk.jfr.internal} (JFR's tick
 * counter, the timing clock) and {@code jdk.internal.misc} (thread ids, {@link ThreadKeys}),
 * exported to it on a thread of the agent's own while the rest of its start goes on: the JDK's
 * {@code Instrumentation.redefineModule} links a dozen lambdas of its own on first use, some
 * ten milliseconds. The clock and the thread keys choose once, and wait here first, so that
 * neither chooses while a grant is under way.
 *
 * <p>The granting thread touches neither before it has granted (or failed), and then says so
 * ({@link #made()}); a thread waiting here holds nothing that a grant needs. The agent waits
 * too, before it adds its transformer: until then no class is traced.
 */
public final class InternalsGrant {
    private static final Object LOCK = new Object();
    /** The thread making the grant, until it is made (or has failed); null otherwise. */
    private static Thread granting;

    private InternalsGrant() {
    }

    /** The agent: a grant is to be made on {@code thread} (called before it starts). */
    public static void madeOn(Thread thread) {
        synchronized (LOCK) {
            granting = thread;
        }
    }

    /** The agent: the grant is made, or has failed. */
    public static void made() {
        synchronized (LOCK) {
            granting = null;
            LOCK.notifyAll();
        }
    }

    /**
     * Waits until a grant under way is made or has failed; returns at once when none is, and on
     * the granting thread itself. A granting thread that ended without saying so (it could not
     * start) ends the wait too.
     */
    public static void await() {
        boolean interrupted = false;
        synchronized (LOCK) {
            while (granting != null && granting != Thread.currentThread()
                    && granting.getState() != Thread.State.TERMINATED) {
                try {
                    LOCK.wait(10);
                } catch (InterruptedException e) {
                    interrupted = true; // kept for the caller; the grant is a matter of milliseconds
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
