package org.tracingfacility.core;


/**
 * The one entry point the build plugins call: runs the native core on a request and returns
 * its report. Stateless and safe to call from several threads at once.
 *
 * <p>The first call loads the native library into the caller's class loader (see
 * {@link NativeLibrary}); if that fails, the call throws the reason.
 */
public final class TfCore {
    private TfCore() {}

    /**
     * Runs one enhancement. A run that found errors is not an exception: the report says
     * {@code ok() == false} and lists every offence.
     *
     * @throws NativeCoreException for every failure of the core itself, whatever its cause
     *     (the one type both plugins catch): no native core for this platform, a library that
     *     could not be loaded, a request the core refuses (an unknown format version), a panic,
     *     or an answer that is not a report of this format
     */
    public static EnhanceReport enhance(EnhanceRequest request) {
        return checkedReport(called(MessagePackCodec.encode(request)));
    }

    /**
     * {@link #enhance(EnhanceRequest)}, answered from {@code cache} when it holds the reply to
     * this very request, and kept there otherwise. The native library is loaded only when the
     * cache does not answer.
     */
    public static EnhanceReport enhance(EnhanceRequest request, ReplyCache cache) {
        byte[] encoded = MessagePackCodec.encode(request);
        byte[] reply = cache.find(encoded);
        if (reply == null) {
            reply = called(encoded);
            cache.keep(encoded, reply);
        }
        return checkedReport(reply);
    }

    private static EnhanceReport checkedReport(byte[] reply) {
        EnhanceReport report = MessagePackCodec.decodeReport(reply);
        if (report.formatVersion() != EnhanceRequest.FORMAT_VERSION) {
            throw new NativeCoreException("the native core answered in report format "
                    + report.formatVersion() + ", this bridge reads format "
                    + EnhanceRequest.FORMAT_VERSION);
        }
        return report;
    }

    /**
     * The version of the native core.
     *
     * @throws NativeCoreException when the core could not be loaded
     */
    public static String version() {
        try {
            return NativeCore.version();
        } catch (ExceptionInInitializerError e) {
            throw unwrapped(e);
        } catch (UnsupportedOperationException | LinkageError e) {
            throw new NativeCoreException(describe(e), e);
        }
    }

    /** The native core's reply to an encoded request. */
    static byte[] called(byte[] encoded) {
        try {
            return NativeCore.enhance(encoded);
        } catch (ExceptionInInitializerError e) {
            throw unwrapped(e);
        } catch (IllegalArgumentException | UnsupportedOperationException | LinkageError e) {
            throw new NativeCoreException(describe(e), e);
        }
    }

    /** The message of a failure, or its type when it has none. */
    private static String describe(Throwable e) {
        return e.getMessage() != null ? e.getMessage() : e.toString();
    }

    /**
     * Unwraps a failed library load so callers see why, not an ExceptionInInitializerError.
     * (Calls written out rather than through a lambda: the agent's start-up runs them.)
     */
    private static NativeCoreException unwrapped(ExceptionInInitializerError e) {
        Throwable cause = e.getCause();
        if (cause instanceof NativeCoreException) {
            return (NativeCoreException) cause;
        }
        return new NativeCoreException(describe(cause != null ? cause : e), cause != null ? cause : e);
    }
}
