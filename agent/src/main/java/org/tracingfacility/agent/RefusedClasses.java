package org.tracingfacility.agent;

/**
 * The JDK classes the agent will not trace: those the agent, the native core's JNI call,
 * tf-runtime and the JVM's linking of a monitor's call site ({@code java.lang.invoke}) run while
 * enhancing a class or reporting an event. Traced, each would call into the monitoring code from
 * inside it (linking a call site that is being linked, formatting an event), recursing without
 * end or deadlocking on a class being initialized. Attaching with {@code filter=java.util.ArrayList::add}
 * overflowed the target's stack before {@code java.util} was refused here.
 */
final class RefusedClasses {
    /** Packages refused with every package below them. */
    private static final String[] PACKAGE_TREES = {
        "java.lang.", // Object, String, Thread, ThreadLocal, invoke, reflect, ref: the JVM's own
        "jdk.internal.",
        "sun.",
        "jdk.jfr.", // the jfr monitor and JFR's own instrumentation
        "java.util.concurrent.atomic.",
        "java.util.concurrent.locks.",
        "java.util.function.",
        "java.util.stream.",
        "java.util.regex.",
        "java.io.", // the printing monitors' PrintStream
        "java.nio.",
        "java.text.",
        "java.security.", // class loading: SecureClassLoader, CodeSource, ProtectionDomain
        "java.net.", // class loading: URL, URI, URLClassLoader
        "org.tracingfacility.",
    };
    /** Packages refused without the packages below them ({@code java.util} but not {@code java.util.concurrent}). */
    private static final String[] PACKAGES = {
        "java.util", // ArrayList, HashMap, Arrays, Objects, Formatter: java.lang.invoke and every monitor use them
    };
    /** Single classes (and their nested classes) of packages otherwise open. */
    private static final String[] CLASSES = {
        "java.util.concurrent.ConcurrentHashMap", // interns java.lang.invoke's MethodTypes
    };

    private RefusedClasses() {
    }

    /** Why {@code binaryName} is refused, or null when it may be traced. */
    static String reason(String binaryName) {
        for (String tree : PACKAGE_TREES) {
            if (binaryName.startsWith(tree)) {
                return used(tree + "**");
            }
        }
        int lastDot = binaryName.lastIndexOf('.');
        String pkg = lastDot < 0 ? "" : binaryName.substring(0, lastDot);
        for (String refused : PACKAGES) {
            if (pkg.equals(refused)) {
                return used(refused + ".*");
            }
        }
        for (String refused : CLASSES) {
            if (binaryName.equals(refused) || binaryName.startsWith(refused + "$")) {
                return used(refused);
            }
        }
        return null;
    }

    private static String used(String what) {
        return "the agent and tf-runtime use " + what + " while enhancing and monitoring "
                + "(tracing it would recurse into the monitoring code)";
    }
}
