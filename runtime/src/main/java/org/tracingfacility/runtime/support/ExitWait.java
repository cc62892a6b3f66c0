package org.tracingfacility.runtime.support;

/**
 * How long exit waits for each report the runtime writes then (the timing table, a profile):
 * a stuck file system must not hold the JVM. Shared by the runtime's packages; not for users.
 */
public final class ExitWait {
    /** Milliseconds exit waits for each report (a whole-JDK profile takes longer than 5 s to write). */
    public static final String PROPERTY = "tf.exit.wait";
    /** How long exit waits for a report by default; {@value #PROPERTY} changes it. */
    private static final long DEFAULT_MILLIS = 5_000;

    private ExitWait() {
    }

    /** How long exit waits for each report, in milliseconds ({@value #PROPERTY}, else 5 s). */
    public static long millis() {
        try {
            // At least 1: Thread.join(0) would wait for ever.
            return Math.max(1, Long.parseLong(System.getProperty(PROPERTY, "").trim()));
        } catch (NumberFormatException e) {
            return DEFAULT_MILLIS;
        }
    }
}
