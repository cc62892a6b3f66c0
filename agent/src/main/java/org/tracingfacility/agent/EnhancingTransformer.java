package org.tracingfacility.agent;

import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.tracingfacility.core.Diagnostic;
import org.tracingfacility.core.EnhanceReport;
import org.tracingfacility.core.EnhanceRequest;
import org.tracingfacility.runtime.support.ThreadsAtWork;

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

    /** Which filters selected a class so far, for the line at exit naming those that did not. */
    final FilterUse filterUse;
    final AtomicLong enhanced = new AtomicLong();
    final AtomicLong leftAsTheyWere = new AtomicLong();
    final AtomicLong coreCalls = new AtomicLong();
    final AtomicLong coreNanos = new AtomicLong();

    EnhancingTransformer(AgentOptions options, ClassSelector selector, BootstrapRuntime runtime) {
        this.options = options;
        this.selector = selector;
        this.runtime = runtime;
        this.filterUse = new FilterUse(options.filters);
    }

    @Override
    public byte[] transform(Module module, ClassLoader loader, String internalName, Class<?> classBeingRedefined,
            ProtectionDomain protectionDomain, byte[] classFile) {
        // Hidden classes have no name.
        if (internalName == null) {
            return null;
        }
        // At work before anything else: what the agent runs from here on (the thread-local
        // below included) is its own work, which no traced method reports.
        boolean recorded = ThreadsAtWork.enter();
        try {
            // A class loaded by the agent's own work is never traced.
            if (busy.get() != null) {
                return null;
            }
            busy.set(Boolean.TRUE);
            String name = internalName.replace('/', '.');
            try {
                return enhance(module, loader, name, classFile, classBeingRedefined);
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
        } finally {
            if (recorded) {
                ThreadsAtWork.leave();
            }
        }
    }

    private byte[] enhance(Module module, ClassLoader loader, String name, byte[] classFile, Class<?> redefined) {
        boolean retransforming = redefined != null;
        LoaderGroups groups;
        boolean jdk = loader == null || loader == PLATFORM;
        byte[] asLoaded = classFile;
        List<String> supertypes = supertypes(loader, name, classFile, redefined);
        if (jdk) {
            if (!selector.selectsJdkClass(name, classFile) && !selector.namesASupertype(supertypes)) {
                return null;
            }
            String refusal = RefusedClasses.reason(name);
            if (refusal != null) {
                leftAsTheyWere.incrementAndGet();
                filterUse.selected(name, classFile, true, supertypes);
                AgentLog.leftAsItWasLater(name, refusal);
                return null;
            }
            groups = LoaderGroups.of(null);
            if (redefined != null) {
                classFile = JdkClassFiles.withFrames(redefined, name.replace('.', '/'), classFile);
            }
        } else {
            groups = LoaderGroups.of(loader);
            boolean worthACall = selector.worthACall(name, classFile, groups.descriptors)
                    || selector.namesASupertype(supertypes);
            if (!worthACall || RefusedClasses.reason(name) != null) {
                return null;
            }
        }
        Optional<byte[]> enhancedBytes = callCore(name, classFile, supertypes, groups, retransforming, jdk);
        if (enhancedBytes.isPresent()) {
            filterUse.selected(name, asLoaded, jdk, supertypes);
            runtime.makeReadable(module);
            runtime.resolveAhead(loader);
            enhanced.incrementAndGet();
        }
        return enhancedBytes.orElse(null);
    }

    /**
     * The class's supertypes when a {@code Type+} filter asks for them (else none): a class
     * retransformed is loaded, and answers by reflection; one loading has its supertypes' class
     * files read, not loaded ({@link Supertypes}).
     */
    private List<String> supertypes(ClassLoader loader, String name, byte[] classFile, Class<?> redefined) {
        if (!selector.needsSupertypes()) {
            return List.of();
        }
        return redefined != null ? Supertypes.ofLoaded(redefined) : Supertypes.ofLoading(loader, name, classFile);
    }

    /**
     * The core's answer for one class; its lines printed, its failure reported. Every class
     * gets the guarded shape, which adds no member; one loading (not retransformed) that the
     * guarded shape cannot take (info methods, which gain parameters; a class file too old to
     * name its class in code) gets the standard shape instead.
     */
    Optional<byte[]> callCore(String name, byte[] classFile, List<String> supertypes, LoaderGroups groups,
            boolean retransforming, boolean jdk) {
        long start = System.nanoTime();
        EnhanceReport report = GuardedEnhancement.enhance(name, classFile, supertypes, groups.names,
                options.filters, options.verbose);
        coreCalls.incrementAndGet();
        if (!retransforming && needsMembers(report)) {
            report = CoreReplies.enhance(EnhanceRequest.forClass(name, classFile)
                    .supertypes(supertypes)
                    .filters(options.filters)
                    .groups(groups.names)
                    .verbose(options.verbose)
                    .build());
            coreCalls.incrementAndGet();
        }
        coreNanos.addAndGet(System.nanoTime() - start);
        // Loops, not lambdas: the first lambda costs a JVM milliseconds of start-up.
        for (String message : report.messages()) {
            AgentLog.lineLater(message);
        }
        for (String warning : report.warnings()) {
            AgentLog.lineLater(warning.startsWith("TF: ") ? warning.substring(4) : warning);
        }
        if (!report.ok()) {
            leftAsTheyWere.incrementAndGet();
            // Selected, and its line says why it is not traced.
            filterUse.selected(name, classFile, jdk, supertypes);
            for (Diagnostic error : report.errors()) {
                String method = error.method().isPresent() ? " in " + error.method().get() : "";
                AgentLog.leftAsItWasLater(name, error.message() + " [" + error.rule() + "]" + method);
            }
            return Optional.empty();
        }
        return report.classBytes();
    }

    /** Whether the core refused the guarded shape for what only members added can carry. */
    private static boolean needsMembers(EnhanceReport report) {
        for (Diagnostic error : report.errors()) {
            if (error.rule().equals("retransform-info-method") || error.rule().equals("retransform-class-version")) {
                return true;
            }
        }
        return false;
    }
}
