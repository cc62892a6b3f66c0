package org.tracingfacility.agent;

import java.io.IOException;
import java.io.InputStream;
import java.lang.instrument.Instrumentation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.jar.JarFile;

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
    private static final String RUNTIME_CLASS = "org.tracingfacility.runtime.EnhancedCodeSupport";

    private final Instrumentation instrumentation;
    /** The boot loader's unnamed module, where the runtime now lives. */
    private final Module runtimeModule;
    private final Set<Module> reading = ConcurrentHashMap.newKeySet();

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

    /**
     * Lets the classes of {@code module} (a JDK module, or an application's named module) reach
     * the runtime that their enhanced code calls: named modules read only what they declare.
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
     * The nested jar as a file of its own, under a directory named by its SHA-256, so that
     * versions never mix; written to a temporary file and renamed, so that JVMs starting at
     * once never see half a jar.
     */
    private static Path extracted() throws IOException {
        byte[] bytes;
        try (InputStream in = BootstrapRuntime.class.getClassLoader().getResourceAsStream(NESTED_JAR)) {
            if (in == null) {
                throw new IOException("the agent jar lacks " + NESTED_JAR + " (a broken build of tf-agent)");
            }
            bytes = in.readAllBytes();
        }
        Path directory = cacheRoot().resolve(sha256(bytes).substring(0, 16));
        Path jar = directory.resolve("tf-runtime.jar");
        if (Files.isRegularFile(jar) && Files.size(jar) == bytes.length) {
            return jar;
        }
        Files.createDirectories(directory);
        Path temporary = Files.createTempFile(directory, "tf-runtime", ".tmp");
        try {
            Files.write(temporary, bytes);
            Files.move(temporary, jar, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(temporary);
        }
        return jar;
    }

    /** Beside the native library's cache ({@code -Dtf.native.dir} moves both). */
    private static Path cacheRoot() {
        String root = System.getProperty("tf.native.dir");
        if (root != null && !root.isBlank()) {
            return Paths.get(root, "agent");
        }
        return Paths.get(System.getProperty("user.home"), ".cache", "tracingfacility", "agent");
    }

    private static String sha256(byte[] bytes) {
        try {
            StringBuilder hex = new StringBuilder();
            for (byte b : MessageDigest.getInstance("SHA-256").digest(bytes)) {
                hex.append(String.format("%02x", b));
            }
            return hex.toString();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("a JVM without SHA-256", e);
        }
    }
}
