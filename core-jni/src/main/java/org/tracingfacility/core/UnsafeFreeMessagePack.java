package org.tracingfacility.core;

import org.msgpack.core.buffer.MessageBuffer;

/**
 * Has msgpack-core choose its buffers without {@code sun.misc.Unsafe}, whose
 * {@code arrayBaseOffset} JDK 24 and later warn about in four lines at run time (and a later
 * JDK will refuse). msgpack-core (0.9.x, still so in 0.9.12) decides once, when its
 * {@code MessageBuffer} class initializes: the "universal" buffer, built on
 * {@link java.nio.ByteBuffer}, when the system property {@code msgpack.universal-buffer} is
 * true. TF's messages are small (a request, a report, one class's bytes), so the speed of
 * Unsafe buys nothing here.
 *
 * <p>The property is set only around that initialization, and only when nobody set it: the
 * class is TF's shaded copy, and another msgpack-core in the same JVM (the application's,
 * under the agent) initializes later and decides as it would have without TF.
 */
final class UnsafeFreeMessagePack {
    static final String UNIVERSAL_BUFFER = "msgpack.universal-buffer";

    private UnsafeFreeMessagePack() {}

    /** Initializes msgpack-core's buffer class, universal unless the JVM's command line chose. */
    static synchronized void initialize() {
        String chosen = System.getProperty(UNIVERSAL_BUFFER);
        if (chosen == null) {
            System.setProperty(UNIVERSAL_BUFFER, "true");
        }
        try {
            Class.forName(MessageBuffer.class.getName(), true, UnsafeFreeMessagePack.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("msgpack-core is shaded beside this class", e);
        } finally {
            if (chosen == null) {
                System.clearProperty(UNIVERSAL_BUFFER);
            }
        }
    }
}
