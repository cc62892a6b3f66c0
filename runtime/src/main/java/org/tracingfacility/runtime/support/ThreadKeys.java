package org.tracingfacility.runtime.support;

/**
 * A number per live thread, for the per-thread tables of the guard and of the monitors that
 * find a thread's state without a {@code ThreadLocal} ({@link ThreadsAtWork}, {@code timing},
 * {@code profile}): what they run on every traced call, so it runs no code a filter could
 * trace.
 *
 * <p>The thread's id where TF may read it as a field ({@link ThreadIds}: under the agent,
 * which exports {@code jdk.internal.misc} to TF), its identity hash elsewhere. The hash is an
 * intrinsic too, but once a thread's monitor is inflated (another thread joins it, waiting on
 * the {@code Thread} object) the hash no longer sits in the object's header, and every read is
 * a call into the VM: a fifth of a whole-JDK profile's CPU (bench/agent/whole-jdk). Ids are
 * also distinct, where two threads may share a hash.
 *
 * <p>The choice is made once, as this class initializes, after any grant the agent is making
 * ({@link InternalsGrant}), and held in a constant: a thread's key never changes while it is
 * recorded anywhere.
 */
public final class ThreadKeys {
    private static final boolean BY_THREAD_ID = threadIdsReadable();

    private ThreadKeys() {
    }

    /** The current thread's key: stable for the thread's life. */
    public static int current() {
        return BY_THREAD_ID ? ThreadIds.ofCurrentThread() : System.identityHashCode(Thread.currentThread());
    }

    /** Whether keys are thread ids (else identity hashes). */
    public static boolean byThreadId() {
        return BY_THREAD_ID;
    }

    private static boolean threadIdsReadable() {
        InternalsGrant.await();
        if (!Object.class.getModule().isExported("jdk.internal.misc", ThreadKeys.class.getModule())) {
            return false; // what the read below would find, without an error thrown and caught
        }
        try {
            ThreadIds.ofCurrentThread();
            return true;
        } catch (LinkageError e) { // the field renamed in some JDK: identity hashes serve
            return false;
        }
    }
}
