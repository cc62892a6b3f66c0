package org.tracingfacility.core;

/**
 * The functions {@code libtf_core} exports to Java. Loading this class loads the library
 * into this class's loader (see {@link NativeLibrary}); use {@link TfCore}, not this class.
 */
final class NativeCore {
    static {
        NativeLibrary.load();
    }

    private NativeCore() {}

    /**
     * Runs one enhancement.
     *
     * @param request a MessagePack {@code EnhanceRequest} map
     * @return a MessagePack {@code EnhanceReport} map; a failed run is a report with {@code ok=false}
     * @throws IllegalArgumentException if the core cannot decode the request or does not know
     *     its format version
     * @throws NativeCoreException if the core panicked
     */
    static native byte[] enhance(byte[] request);

    /** The version of the native crate. */
    static native String version();

    /**
     * Test hook, outside the request: the core panics with {@code message} (UTF-8) under the guard
     * {@link #enhance} runs in, so that a test proves a panic reaches Java as an exception.
     *
     * @throws NativeCoreException always, its message naming {@code message}
     */
    static native void panicForTest(byte[] message);
}
