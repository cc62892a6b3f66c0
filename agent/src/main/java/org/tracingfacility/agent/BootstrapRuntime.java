package org.tracingfacility.agent;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.lang.instrument.Instrumentation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.zip.CRC32;

/**
 * Puts tf-runtime, which the agent jar carries as {@code META-INF/tf/tf-runtime.jar}, on the
 * boot class path: every class loader then finds the one copy, java.base's classes included,
 * and a tf-runtime also on the application's class path is shadowed by it (loaders delegate to
 * the boot loader first), so enhanced classes and the application share one registry. Monitor
 * providers on the application's class path still load: the runtime's {@code ServiceLoader}
 * looks in the thread's context loader.
 */
final class BootstrapRuntime {
    private static final String NESTED_JAR = "META-INF/tf/tf-runtime.jar";
    /** A runtime class the agent itself loads (not initializes) to find the runtime's module. */
    private static final String RUNTIME_CLASS = "org.tracingfacility.runtime.support.EnhancedCodeSupport";
    /** The package of JFR's tick counter. */
    private static final String JFR_INTERNAL = "jdk.jfr.internal";
    /** The package of {@code Unsafe}, which reads a thread's id as a field. */
    private static final String MISC_INTERNAL = "jdk.internal.misc";

    private final Instrumentation instrumentation;
    /** The boot loader's unnamed module, where the runtime now lives. */
    private final Module runtimeModule;
    private final Set<Module> reading = ConcurrentHashMap.newKeySet();
    /** Class loaders that resolved the classes traced code names already. */
    private final Set<ClassLoader> resolving = java.util.Collections.synchronizedSet(
            java.util.Collections.newSetFromMap(new java.util.WeakHashMap<>()));

    /** What traced code names (the guarded shape): resolved once per loader, ahead of it. */
    private static final String[] NAMED_BY_TRACED_CODE = {
        "org.tracingfacility.runtime.support.GuardedSites",
        "org.tracingfacility.runtime.MethodMonitor",
        "org.tracingfacility.runtime.support.EnhancedCodeSupport",
    };
    /** Run by traced code's monitor lookup: initialized before the first class is traced. */
    private static final String[] GUARD = {
        "org.tracingfacility.runtime.support.ThreadsAtWork",
        "org.tracingfacility.runtime.support.ThreadKeys",
        "org.tracingfacility.runtime.support.GuardedSites",
        "org.tracingfacility.runtime.support.GuardedMonitor",
        "org.tracingfacility.runtime.support.SelfGuardedMonitor",
        "org.tracingfacility.runtime.support.EnhancedCodeSupport",
        "org.tracingfacility.runtime.support.RegistryBridge",
        "org.tracingfacility.runtime.MethodMonitorRegistry",
    };

    private BootstrapRuntime(Instrumentation instrumentation, Module runtimeModule) {
        this.instrumentation = instrumentation;
        this.runtimeModule = runtimeModule;
    }

    static BootstrapRuntime install(Instrumentation instrumentation) throws IOException, ClassNotFoundException {
        Path jar = extracted();
        instrumentation.appendToBootstrapClassLoaderSearch(new JarFile(jar.toFile()));
        Module module = Class.forName(RUNTIME_CLASS, false, null).getModule();
        return new BootstrapRuntime(instrumentation, module);
    }

    /** {@link #openInternals(Instrumentation, Module)} for the runtime this installed. */
    void openInternals() {
        openInternals(instrumentation, runtimeModule);
    }

    /**
     * Exports to the runtime's module what the agent may grant where a user would otherwise add
     * {@code --add-exports}: {@code jdk.internal.misc}, which lets the guard key its per-thread
     * tables by thread id rather than identity hash (the runtime's {@code ThreadKeys}), and
     * {@code jdk.jfr.internal}, which lets {@code timing} read JFR's tick counter instead of
     * {@code System.nanoTime()}, a fraction of its cost on machines whose
     * {@code clock_gettime} is slow (the runtime's {@code TimingClock}). A JVM without the
     * {@code jdk.jfr} module keeps {@code System.nanoTime()}.
     */
    static void openInternals(Instrumentation instrumentation, Module runtimeModule) {
        export(instrumentation, Object.class.getModule(), MISC_INTERNAL, runtimeModule);
        Optional<Module> jfr = ModuleLayer.boot().findModule("jdk.jfr");
        if (jfr.isPresent()) {
            export(instrumentation, jfr.get(), JFR_INTERNAL, runtimeModule);
        }
    }

    private static void export(Instrumentation instrumentation, Module module, String pkg, Module to) {
        if (!module.isExported(pkg, to)) {
            instrumentation.redefineModule(module, Set.of(), Map.of(pkg, Set.of(to)), Map.of(), Set.of(), Map.of());
        }
    }

    /**
     * Lets the classes of {@code module} (a JDK module, or an application's named module) reach
     * the runtime that their enhanced code calls: named modules read only what they declare.
     * (HotSpot 17 and 25 already let the boot layer's modules read the boot loader's unnamed
     * module once an agent is loaded, so {@code LoadTimeAgentIT}'s java.base class passes
     * without this; it is kept for modules where that is not so, and costs one check a module.)
     */
    void makeReadable(Module module) {
        if (module == null || !module.isNamed() || reading.contains(module)) {
            return;
        }
        if (!module.canRead(runtimeModule)) {
            instrumentation.redefineModule(module, Set.of(runtimeModule), Map.of(), Map.of(), Set.of(), Map.of());
        }
        reading.add(module);
    }

    /**
     * Initializes the classes traced code runs to find its monitor, and has the JDK's loaders
     * and the application's resolve what it names: a class initialized or resolved on first
     * use would run JDK code (class initialization, a loader's {@code loadClass}) from inside
     * a traced method before the guard could say that this is TF's work. Call after the
     * monitors' system property is set: the registry reads it as it initializes.
     */
    void prepareGuard() throws ClassNotFoundException {
        initializeGuard(null);
        resolveAhead(ClassLoader.getPlatformClassLoader());
        resolveAhead(ClassLoader.getSystemClassLoader());
    }

    /** Initializes the guard's classes as {@code loader} (null: the boot loader) sees them. */
    static void initializeGuard(ClassLoader loader) throws ClassNotFoundException {
        for (String name : GUARD) {
            Class.forName(name, true, loader);
        }
    }

    /**
     * Has {@code loader} resolve the runtime classes traced code names, once: the JVM then
     * finds them in its records of that loader when a traced class of it first runs, without
     * calling the loader's Java code. Best effort: a loader that cannot see them is told by the
     * core's check ({@code runtime-missing}) or by the failing class.
     */
    void resolveAhead(ClassLoader loader) {
        if (loader == null || !resolving.add(loader)) {
            return;
        }
        for (String name : NAMED_BY_TRACED_CODE) {
            try {
                Class.forName(name, false, loader);
            } catch (ClassNotFoundException | LinkageError e) {
                return;
            }
        }
    }

    /**
     * The nested jar as a file of its own, under a directory named by its CRC-32 and size (as
     * the agent jar's directory records them: nothing to hash at start-up, and versions never
     * mix); an existing copy is used when its bytes have that CRC, else written to a
     * temporary file and renamed, so that JVMs starting at once never see half a jar.
     */
    private static Path extracted() throws IOException {
        JarEntry nested;
        Path agentJar = agentJar();
        try (JarFile jar = new JarFile(agentJar.toFile(), false)) {
            nested = jar.getJarEntry(NESTED_JAR);
            if (nested == null || nested.getCrc() < 0) {
                throw new IOException(agentJar + " lacks " + NESTED_JAR + " (a broken build of tf-agent)");
            }
            // Not String.format: its first use loads the locale providers, tens of milliseconds.
            Path directory = AgentCache.root().resolve(Long.toHexString(nested.getCrc()) + "-" + nested.getSize());
            Path copy = directory.resolve("tf-runtime.jar");
            if (Files.isRegularFile(copy) && crc(readAll(copy)) == nested.getCrc()) {
                return copy;
            }
            byte[] bytes;
            try (InputStream in = jar.getInputStream(nested)) {
                bytes = in.readAllBytes();
            }
            Files.createDirectories(directory);
            Path temporary = Files.createTempFile(directory, "tf-runtime", ".tmp");
            try {
                Files.write(temporary, bytes);
                Files.move(temporary, copy, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } finally {
                Files.deleteIfExists(temporary);
            }
            return copy;
        }
    }

    private static Path agentJar() throws IOException {
        try {
            return Paths.get(BootstrapRuntime.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException | RuntimeException e) {
            throw new IOException("cannot tell where the agent jar is: " + e, e);
        }
    }

    /** A file's bytes through a stream, whose classes are loaded already (Files' channels are not, this early). */
    private static byte[] readAll(Path file) throws IOException {
        try (InputStream in = new java.io.FileInputStream(file.toFile())) {
            return in.readAllBytes();
        }
    }

    private static long crc(byte[] bytes) {
        CRC32 crc = new CRC32();
        crc.update(bytes, 0, bytes.length);
        return crc.getValue();
    }
}
