package org.tracingfacility.runtime.support;

import jdk.internal.misc.Unsafe;

/**
 * The current thread's id, read from its field as one load: {@code Thread.threadId()} has
 * bytecode, which the agent may trace, and the per-thread mark that keeps monitoring code out
 * of traced methods ({@link ThreadsAtWork}) must run none. {@code Unsafe.getLong} is a native
 * without bytecode (a C2 intrinsic), and an id, unlike an identity hash, needs no call into
 * the VM when the thread's monitor is inflated (a thread another one joins).
 *
 * <p>Compiled apart from the rest of tf-runtime, with {@code jdk.internal.misc} exported at
 * compile time ({@code runtime/pom.xml}); at run time that package is exported to TF only by
 * the agent (or {@code --add-exports java.base/jdk.internal.misc=ALL-UNNAMED}). Elsewhere the
 * first use throws {@link IllegalAccessError}, and {@link ThreadKeys} keeps identity hashes.
 */
final class ThreadIds {
    private static final Unsafe UNSAFE = Unsafe.getUnsafe();
    /** Where {@code Thread.tid} lies: the field behind {@code threadId()} on JDK 11 to 25. */
    private static final long TID = UNSAFE.objectFieldOffset(Thread.class, "tid");

    private ThreadIds() {
    }

    /** The current thread's id, its low 32 bits: unique among the JVM's first 2^32 threads. */
    static int ofCurrentThread() {
        return (int) UNSAFE.getLong(Thread.currentThread(), TID);
    }
}
