package org.tracingfacility.agent;

import java.io.IOException;
import java.lang.instrument.Instrumentation;
import java.lang.instrument.UnmodifiableClassException;
import java.util.ArrayList;
import java.util.List;
import org.tracingfacility.core.Diagnostic;
import org.tracingfacility.core.EnhanceReport;
import org.tracingfacility.core.EnhanceRequest;
import org.tracingfacility.core.PackagedResources;
import org.tracingfacility.core.TfCore;

/**
 * {@code -javaagent:tf-agent.jar=<options>}: the runtime on the boot class path, the monitors
 * named, the filters checked by the core itself, then a transformer for every class loaded
 * from here on, and a retransformation of the classes loaded before that the filters name.
 */
final class LoadTimeAgent {
    private static final String MONITOR_PROPERTY = "tf.monitor";

    private LoadTimeAgent() {
    }

    /**
     * @throws IllegalArgumentException when the filters are not valid (the core's message)
     */
    static void start(AgentOptions options, Instrumentation instrumentation) throws Exception {
        BootstrapRuntime runtime = BootstrapRuntime.install(instrumentation);
        ParallelStart parallel = ParallelStart.begin(runtime);
        if (!options.monitors.isEmpty()) {
            System.setProperty(MONITOR_PROPERTY, options.monitorProperty(System.getProperty(MONITOR_PROPERTY)));
        }
        ClassSelector selector = new ClassSelector(options.filters);
        // Before the runtime's guard is prepared: the thread keys it initializes wait for the
        // grant the second thread is making (ParallelStart), and the core call or its cached
        // reply is the time that grant takes. Nothing is traced yet, so nothing here is seen.
        warmUp(options, selector);
        runtime.prepareGuard();
        // From here on the agent's start is its own work: no traced class reports it.
        org.tracingfacility.runtime.support.ThreadsAtWork.enter();
        try {
            startAtWork(options, instrumentation, runtime, parallel, selector);
        } finally {
            org.tracingfacility.runtime.support.ThreadsAtWork.leave();
        }
    }

    private static void startAtWork(AgentOptions options, Instrumentation instrumentation, BootstrapRuntime runtime,
            ParallelStart parallel, ClassSelector selector) throws Exception {
        EnhancingTransformer transformer = new EnhancingTransformer(options, selector, runtime);
        parallel.await(); // before anything is traced: see ParallelStart
        // Loaded before the transformer, which calls it for every class: loading it from inside
        // a transformation would define it twice.
        AgentLog.flush();
        instrumentation.addTransformer(transformer, true);
        retransformLoadedClasses(instrumentation, selector, transformer);
        AgentLog.flush();
        AgentLog.flushAtExit();
        // Hooks are Runnables, not Thread subclasses: verifying this class would load a Thread
        // subclass to check it is one, hook or no hook; an interface is not checked.
        if (options.verbose > 0) {
            Runtime.getRuntime().addShutdownHook(new Thread(new Runnable() {
                @Override
                public void run() {
                    AgentLog.line(summary(transformer));
                }
            }, "tf-agent-summary"));
        }
        if (!options.filters.isEmpty()) {
            // Only at exit can the agent know that no class a filter names was loaded.
            Runtime.getRuntime().addShutdownHook(new Thread(new Runnable() {
                @Override
                public void run() {
                    for (String filter : transformer.filterUse.unused()) {
                        AgentLog.line(FilterUse.selectedNothingAtExit(filter));
                    }
                }
            }, "tf-agent-unused-filters"));
        }
    }

    /**
     * One call of the core before any class depends on it: loads the native library and every
     * class the transformer runs (a class the agent loads while transforming is never looked
     * at), and has the core judge the filters, so that a bad one stops the agent here with the
     * core's message rather than failing every class.
     */
    private static void warmUp(AgentOptions options, ClassSelector selector) throws IOException {
        String resource = LoadTimeAgent.class.getName().replace('.', '/') + ".class";
        // From the agent jar as a file: a class loader's resource would go through jar: URLs.
        byte[] bytes = PackagedResources.besides(LoadTimeAgent.class).read(resource);
        if (bytes == null) {
            throw new IOException("cannot read " + resource + " from the agent jar");
        }
        LoaderGroups groups = LoaderGroups.of(ClassLoader.getSystemClassLoader());
        selector.worthACall(LoadTimeAgent.class.getName(), bytes, groups.descriptors);
        if (selector.needsSupertypes()) {
            // Their classes loaded now, not while a class loads.
            selector.namesASupertype(Supertypes.ofLoaded(LoadTimeAgent.class));
            Supertypes.ofLoading(LoadTimeAgent.class.getClassLoader(), LoadTimeAgent.class.getName(), bytes);
        }
        EnhanceReport report = CoreReplies.enhance(EnhanceRequest.forClass(LoadTimeAgent.class.getName(), bytes)
                .filters(options.filters).groups(groups.names).build());
        List<String> bad = new ArrayList<>();
        for (Diagnostic error : report.errors()) {
            if (error.rule().equals("filter")) {
                bad.add(error.message());
            }
        }
        if (!bad.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", bad));
        }
        if (selector.mayReachJdkClasses()) {
            // The reply may have come from an earlier run's cache. The JDK classes that loading
            // the native library uses are loaded here, then, rather than inside a transformation,
            // where they would go untraced.
            TfCore.version();
        }
    }

    /**
     * Classes the JVM loaded before the agent started (java.base's own, mostly) reach the
     * transformer only by retransformation, in the shape a running JVM accepts (new method
     * bodies only, as attach); one at a time, so that one the JVM refuses is reported and the
     * others go on.
     */
    private static void retransformLoadedClasses(Instrumentation instrumentation, ClassSelector selector,
            EnhancingTransformer transformer) {
        List<Class<?>> modifiable = new ArrayList<>();
        boolean jdkReachable = selector.mayReachJdkClasses();
        ClassLoader platform = ClassLoader.getPlatformClassLoader();
        for (Class<?> loaded : instrumentation.getAllLoadedClasses()) {
            ClassLoader loader = loaded.getClassLoader();
            boolean jdk = loader == null || loader == platform;
            if (jdk && !jdkReachable) {
                continue; // most of what is loaded this early; not even named (a name costs a string)
            }
            String name = loaded.getName();
            // Hidden classes (a '/' in the name: lambdas, method handles' forms) are generated and never
            // modifiable: skipped unsaid.
            if (loaded.isArray() || loaded.isPrimitive() || name.indexOf('/') >= 0) {
                continue;
            }
            // A Type+ target reaches the classes loaded before too: they answer by reflection.
            List<String> supertypes = selector.needsSupertypes() ? Supertypes.ofLoaded(loaded) : List.of();
            if (!(jdk ? selector.selectsJdkClass(name) : selector.namesClass(name))
                    && !selector.namesASupertype(supertypes)) {
                continue;
            }
            String refusal = RefusedClasses.reason(name);
            if (refusal != null) {
                transformer.filterUse.selected(name, null, jdk, supertypes);
                AgentLog.leftAsItWas(name, refusal);
            } else if (!instrumentation.isModifiableClass(loaded)) {
                transformer.filterUse.selected(name, null, jdk, supertypes);
                AgentLog.leftAsItWas(name, "the JVM does not let agents change it");
            } else {
                modifiable.add(loaded);
            }
        }
        retransform(instrumentation, modifiable, transformer);
    }

    /**
     * All at once: the JVM's work for a retransformation walks every loaded class, so one call
     * for a thousand classes costs what one class costs, not a thousand times that (the whole
     * JDK's start spent seconds here). The JVM changes all of them or none; when it refuses,
     * one at a time, so that a class it refuses is reported and the others go on.
     */
    private static void retransform(Instrumentation instrumentation, List<Class<?>> classes,
            EnhancingTransformer transformer) {
        if (classes.isEmpty()) {
            return;
        }
        long enhancedBefore = transformer.enhanced.get();
        long leftBefore = transformer.leftAsTheyWere.get();
        try {
            instrumentation.retransformClasses(classes.toArray(new Class<?>[0]));
            return;
        } catch (UnmodifiableClassException | RuntimeException | LinkageError e) {
            // None changed: counted again below, class by class (a line the transformer printed
            // for a class it left as it was is printed again then).
            transformer.enhanced.set(enhancedBefore);
            transformer.leftAsTheyWere.set(leftBefore);
        }
        for (Class<?> loaded : classes) {
            long before = transformer.enhanced.get();
            try {
                instrumentation.retransformClasses(loaded);
            } catch (UnmodifiableClassException | RuntimeException | LinkageError e) {
                // The transformer counted it enhanced; the JVM kept the class as it was.
                if (transformer.enhanced.get() > before) {
                    transformer.enhanced.decrementAndGet();
                }
                transformer.leftAsTheyWere.incrementAndGet();
                AgentLog.leftAsItWas(loaded.getName(), "loaded before the agent started, and the JVM refused its "
                        + "traced code: " + e);
            }
        }
    }

    private static String summary(EnhancingTransformer transformer) {
        return transformer.enhanced.get() + " classes enhanced, " + transformer.leftAsTheyWere.get()
                + " left as they were; " + transformer.coreCalls.get() + " calls of the core ("
                + CoreReplies.fromCache() + " answered by earlier runs' replies), "
                + transformer.coreNanos.get() / 1_000_000 + " ms in it" + StartupArchive.hintForThisJvm();
    }
}
