package org.tracingfacility.runtime;

import java.lang.invoke.CallSite;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import org.tracingfacility.runtime.support.EnhancedCodeSupport;

/**
 * What the enhancer's bytecode does that Java source cannot say: the
 * {@code invokedynamic "monitor"} instruction. Fixtures call {@link #link} where the class file
 * would carry the instruction, and invoke the handle where it would execute it.
 */
final class GeneratedCode {
    private GeneratedCode() {
    }

    /** Links like the JVM does on the first execution of the instruction. */
    static MethodHandle link(MethodHandles.Lookup lookup, Class<?> annotation) {
        CallSite site = EnhancedCodeSupport.linkMonitor(lookup, "monitor",
                MethodType.methodType(MethodMonitor.class), annotation);
        return site.dynamicInvoker();
    }

    /**
     * The tracing names as the enhancer writes them into a class, for the registration:
     * each name after its length and a colon ({@code "4:self8:toString"}).
     */
    static String joined(String... names) {
        StringBuilder joined = new StringBuilder();
        for (String name : names) {
            joined.append(name.length()).append(':').append(name);
        }
        return joined.toString();
    }

    /** Executes the linked instruction. */
    static MethodMonitor monitor(MethodHandle linked) {
        try {
            return (MethodMonitor) linked.invokeExact();
        } catch (Throwable e) {
            throw new AssertionError(e);
        }
    }
}
