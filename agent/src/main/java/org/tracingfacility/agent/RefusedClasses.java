package org.tracingfacility.agent;

/**
 * The JDK classes the agent will not trace: those the agent, the native core's JNI call and
 * tf-runtime run while enhancing a class or reporting an event. Traced, each would call into
 * the monitoring code from inside it (linking a monitor's call site, formatting an event),
 * recursing without end or deadlocking on a class being initialized.
 */
final class RefusedClasses {
    private static final String[] PACKAGE_TREES = {
        "java.lang.", // Object, String, Thread, ThreadLocal, invoke, reflect, ref: the JVM's own
        "jdk.internal.",
        "sun.",
        "jdk.jfr.", // the jfr monitor and JFR's own instrumentation
        "java.util.concurrent.atomic.",
        "java.util.concurrent.locks.",
        "org.tracingfacility.",
    };

    private RefusedClasses() {
    }

    /** Why {@code binaryName} is refused, or null when it may be traced. */
    static String reason(String binaryName) {
        for (String tree : PACKAGE_TREES) {
            if (binaryName.startsWith(tree)) {
                return "the agent and tf-runtime use " + tree + "** while enhancing and monitoring "
                        + "(tracing it would recurse into the monitoring code)";
            }
        }
        return null;
    }
}
