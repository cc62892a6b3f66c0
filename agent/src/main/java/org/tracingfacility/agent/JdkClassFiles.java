package org.tracingfacility.agent;

import java.io.IOException;
import java.io.InputStream;

/**
 * The class file of a JDK class as the JDK ships it. A class the JVM loaded from its class data
 * sharing archive (most of java.base at start-up) reaches a retransformation rebuilt from the
 * JVM's own copy, which keeps no stack map frames (its pool still names {@code StackMapTable}):
 * the core could then not place its code's frames, and every method with a branch would be
 * left as it was (1,695 methods of a javac run, {@code WholeJdkIT}). The runtime image
 * ({@code jrt:/}) holds the class file with its frames, the one the loaded class was defined
 * from. (A change another agent made to the class before is not in it: JDK classes only.)
 */
final class JdkClassFiles {
    private JdkClassFiles() {
    }

    /**
     * The class read from its module in the runtime image, or {@code handed} when it cannot be
     * (no named module, no such resource) or must not be (a JFR event class, which JFR gave
     * fields of its own as it loaded: the image's copy lacks them, and the JVM would refuse it).
     */
    static byte[] withFrames(Class<?> loaded, String internalName, byte[] handed) {
        Module module = loaded.getModule();
        if (module == null || !module.isNamed() || isFlightRecorderEvent(loaded)) {
            return handed;
        }
        try (InputStream in = module.getResourceAsStream(internalName + ".class")) {
            return in == null ? handed : in.readAllBytes();
        } catch (IOException e) {
            return handed;
        }
    }

    private static boolean isFlightRecorderEvent(Class<?> loaded) {
        for (Class<?> type = loaded; type != null; type = type.getSuperclass()) {
            String name = type.getName();
            if (name.equals("jdk.internal.event.Event") || name.equals("jdk.jfr.Event")) {
                return true;
            }
        }
        return false;
    }
}
