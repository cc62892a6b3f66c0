package org.tracingfacility.core;

import java.io.PrintStream;
import java.lang.reflect.Method;

/**
 * From JDK 24 (JEP 472), {@code System::load} from a module without native access prints four
 * {@code WARNING:} lines that name the flag but not where a build puts it. TF prints one line
 * of its own just before, saying that the native library is TF's and where the flag goes.
 * Nothing is printed when native access is enabled (or the JDK does not warn).
 */
final class NativeAccessNotice {
    /** The JDK that first warns about {@code System::load} (JEP 472). */
    static final int FIRST_WARNING_JDK = 24;

    static final String LINE = "TF: the JDK warns below that TF loads its native library (System::load); to allow it,"
            + " add --enable-native-access=ALL-UNNAMED: Maven in .mvn/jvm.config, Gradle in org.gradle.jvmargs"
            + " (gradle.properties), with the agent on the java command line";

    private NativeAccessNotice() {}

    /** Prints {@link #LINE} to {@code err} when loading a library from {@code module} is about to be warned about. */
    static void beforeLoad(Module module, PrintStream err) {
        if (Runtime.version().feature() >= FIRST_WARNING_JDK && !nativeAccessEnabled(module)) {
            err.println(LINE);
        }
    }

    /** {@code Module.isNativeAccessEnabled()} (JDK 22), called by name: this code is built for Java 11. */
    private static boolean nativeAccessEnabled(Module module) {
        try {
            Method enabled = Module.class.getMethod("isNativeAccessEnabled");
            return Boolean.TRUE.equals(enabled.invoke(module));
        } catch (ReflectiveOperationException | RuntimeException e) {
            return true; // a JDK without the question has no warning to explain
        }
    }
}
