package org.tracingfacility.runtime.support;

/**
 * The agent's grant of JFR's tick counter to the runtime ({@code jdk.jfr.internal} exported to
 * it), which the agent makes on a thread of its own while the rest of its start goes on: the
 * JDK's {@code Instrumentation.redefineModule} links a dozen lambdas of its own on first use,
 * some ten milliseconds. The timing clock chooses its clock once, and waits here first, so
 * that it never chooses while a grant is under way.
 *
 * <p>The agent waits too, before it adds its transformer: until then no class is traced, so no
 * monitor (nor the clock) can be waiting here on a thread that holds what the grant needs.
 */
public final class TickCounterGrant {
    /** The thread making the grant, until it is made (or has failed); null otherwise. */
    private static volatile Thread granting;

    private TickCounterGrant() {
    }

    /** The agent: a grant is being made on {@code thread} (called before it starts). */
    public static void madeOn(Thread thread) {
        granting = thread;
    }

    /**
     * Waits until a grant under way is made or has failed; returns at once when none is, and on
     * the granting thread itself (which goes on to initialize the clock, once it has granted).
     */
    public static void await() {
        Thread thread = granting;
        if (thread == null || thread == Thread.currentThread()) {
            return;
        }
        boolean interrupted = false;
        while (thread.isAlive()) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                interrupted = true; // kept for the caller; the grant is a matter of milliseconds
            }
        }
        granting = null;
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
