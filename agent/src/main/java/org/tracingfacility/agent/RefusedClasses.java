package org.tracingfacility.agent;

/**
 * The classes the agent never traces, whatever a filter says: TF's own (the agent, the native
 * core's Java side, tf-runtime and the monitors it ships). They run the guard that keeps
 * monitoring code from reaching a monitor ({@code ThreadsAtWork}, {@code GuardedSites}): traced,
 * the guard would run the guard. Every JDK class with bytecode may be traced: monitoring code
 * never reaches a monitor on a thread it runs on, so nothing it calls in the JDK recurses
 * (ARCHITECTURE, "Tracing the JDK"). What the JVM will not change (hidden classes, arrays,
 * primitives) is refused by {@code Instrumentation.isModifiableClass}, separately.
 */
final class RefusedClasses {
    /** TF's own classes, and every package below. */
    private static final String OWN_PACKAGES = "org.tracingfacility.";
    /**
     * The one JDK class the JVM cannot run traced: every constructor chain ends in
     * {@code Object.<init>}, which HotSpot treats as its own (an intrinsic; finalizer
     * registration hangs on it). Traced, C2 crashed compiling it (JDK 17, {@code WholeJdkIT}).
     */
    private static final String JVM_OWN = "java.lang.Object";

    private RefusedClasses() {
    }

    /** Why {@code binaryName} is refused, or null when it may be traced. */
    static String reason(String binaryName) {
        if (binaryName.startsWith(OWN_PACKAGES)) {
            return "a class of TF itself: it runs the guard that keeps monitoring code from reaching a monitor, "
                    + "and would run it inside itself";
        }
        if (binaryName.equals(JVM_OWN)) {
            return "the JVM treats Object's constructor as its own (an intrinsic every constructor ends in); "
                    + "its compiler cannot compile it traced";
        }
        return null;
    }
}
