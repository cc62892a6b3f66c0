package org.tracingfacility.core;

/**
 * The native core failed as a program, not as an enhancement run: it panicked, it could not
 * be loaded, or it answered with something that is not a report. Enhancement failures (bad
 * class files, rule violations) are not exceptions; they are in {@link EnhanceReport#errors()}.
 *
 * <p>The native side throws this class by name when it catches a Rust panic, with the panic
 * message as the exception message; the JVM keeps running.
 */
public class NativeCoreException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public NativeCoreException(String message) {
        super(message);
    }

    public NativeCoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
