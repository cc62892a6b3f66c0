package org.tracingfacility.agent;

import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import java.util.Collections;
import java.util.Optional;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.tracingfacility.core.Diagnostic;
import org.tracingfacility.core.EnhanceReport;
import org.tracingfacility.core.EnhanceRequest;
import org.tracingfacility.core.TfCore;

/**
 * Hands each loading class the filters or TF's marks select to the native core, one class in
 * memory, and gives the JVM the enhanced bytes. A class the core cannot enhance, or any failure
 * here, leaves the class as it was (the transformer returns null) with one line naming it.
 */
final class EnhancingTransformer implements ClassFileTransformer {
    private static final ClassLoader PLATFORM = ClassLoader.getPlatformClassLoader();

    private final AgentOptions options;
    private final ClassSelector selector;
    private final BootstrapRuntime runtime;
    /** Set while this thread enhances: classes the agent itself loads meanwhile are not looked at. */
    private final ThreadLocal<Boolean> busy = new ThreadLocal<>();
    /**
     * Classes the JVM loaded before the agent started: they reach the transformer only by
     * retransformation, which accepts new method bodies but no new members, so they get the
     * retransformable shape, on every later retransformation too (another agent's included).
     */
    private final Set<Class<?>> loadedBefore = Collections.synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>()));

    final AtomicLong enhanced = new AtomicLong();
    final AtomicLong leftAsTheyWere = new AtomicLong();
    final AtomicLong coreCalls = new AtomicLong();
    final AtomicLong coreNanos = new AtomicLong();

    EnhancingTransformer(AgentOptions options, ClassSelector selector, BootstrapRuntime runtime) {
        this.options = options;
        this.selector = selector;
        this.runtime = runtime;
    }

    /** Says that {@code loaded} was loaded before the agent started (before it is retransformed). */
    void loadedBeforeTheAgent(Class<?> loaded) {
        loadedBefore.add(loaded);
    }

    @Override
    public byte[] transform(Module module, ClassLoader loader, String internalName, Class<?> classBeingRedefined,
            ProtectionDomain protectionDomain, byte[] classFile) {
        // Hidden classes have no name; and a class loaded by the agent's own work is never traced.
        if (internalName == null || busy.get() != null) {
            return null;
        }
        busy.set(Boolean.TRUE);
        String name = internalName.replace('/', '.');
        try {
            boolean retransformable = classBeingRedefined != null && loadedBefore.contains(classBeingRedefined);
            return enhance(module, loader, name, classFile, retransformable);
        } catch (Throwable failure) { // never the application's failure: the class stays as it was
            leftAsTheyWere.incrementAndGet();
            AgentLog.leftAsItWasLater(name, String.valueOf(failure));
            return null;
        } finally {
            busy.remove();
            // Printing while a JDK class loads may need that very class (AgentLog).
            if (loader != null && loader != PLATFORM) {
                AgentLog.flush();
            }
        }
    }

    private byte[] enhance(Module module, ClassLoader loader, String name, byte[] classFile, boolean retransformable) {
        LoaderGroups groups;
        if (loader == null || loader == PLATFORM) {
            if (!selector.selectsJdkClass(name)) {
                return null;
            }
            String refusal = RefusedClasses.reason(name);
            if (refusal != null) {
                leftAsTheyWere.incrementAndGet();
                AgentLog.leftAsItWasLater(name, refusal);
                return null;
            }
            groups = LoaderGroups.of(null);
        } else {
            groups = LoaderGroups.of(loader);
            if (!selector.worthACall(name, classFile, groups.descriptors) || RefusedClasses.reason(name) != null) {
                return null;
            }
        }
        Optional<byte[]> enhancedBytes = callCore(name, classFile, groups, retransformable);
        if (enhancedBytes.isPresent()) {
            runtime.makeReadable(module);
            enhanced.incrementAndGet();
        }
        return enhancedBytes.orElse(null);
    }

    /** The core's answer for one class; its lines printed, its failure reported. */
    Optional<byte[]> callCore(String name, byte[] classFile, LoaderGroups groups, boolean retransformable) {
        EnhanceRequest request = EnhanceRequest.forClass(name, classFile)
                .retransformable(retransformable)
                .filters(options.filters)
                .groups(groups.names)
                .verbose(options.verbose)
                .build();
        long start = System.nanoTime();
        EnhanceReport report = TfCore.enhance(request);
        coreNanos.addAndGet(System.nanoTime() - start);
        coreCalls.incrementAndGet();
        // Loops, not lambdas: the first lambda costs a JVM milliseconds of start-up.
        for (String message : report.messages()) {
            AgentLog.lineLater(message);
        }
        for (String warning : report.warnings()) {
            AgentLog.lineLater(warning.startsWith("TF: ") ? warning.substring(4) : warning);
        }
        if (!report.ok()) {
            leftAsTheyWere.incrementAndGet();
            for (Diagnostic error : report.errors()) {
                String method = error.method().isPresent() ? " in " + error.method().get() : "";
                AgentLog.leftAsItWasLater(name, error.message() + " [" + error.rule() + "]" + method);
            }
            return Optional.empty();
        }
        return report.classBytes();
    }
}
