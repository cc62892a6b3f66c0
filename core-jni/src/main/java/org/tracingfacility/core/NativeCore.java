package org.tracingfacility.core;

/**
 * The two functions {@code libtf_core} exports to Java. Loading this class loads the library
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
}
