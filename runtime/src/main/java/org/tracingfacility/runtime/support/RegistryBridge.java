package org.tracingfacility.runtime.support;

import java.lang.annotation.Annotation;
import java.lang.invoke.MutableCallSite;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.tracingfacility.runtime.MethodMonitor;
import org.tracingfacility.runtime.MethodMonitorRegistry;
import org.tracingfacility.runtime.TracingFacilityMXBean;

/**
 * What this package asks of the registry, whose state stays behind the user's facade
 * ({@link MethodMonitorRegistry}): the registrations of enhanced classes, their call sites,
 * the agent's guarded sites and its management bean. The registry installs its one
 * implementation as it initializes. Not for users: the operations are protected, and only
 * the runtime's own registry is taken.
 */
public abstract class RegistryBridge {
    private static volatile RegistryBridge installed;

    /** For the registry's state, in the user package. */
    protected RegistryBridge() {
    }

    /**
     * Installs the registry's implementation, once; the registry's class initializer calls it.
     *
     * @throws IllegalStateException if one is installed already, or {@code bridge} is not the
     *     runtime's own (its package and class loader)
     */
    public static synchronized void install(RegistryBridge bridge) {
        Class<?> type = bridge.getClass();
        if (installed != null || type.getClassLoader() != RegistryBridge.class.getClassLoader()
                || !type.getName().startsWith("org.tracingfacility.runtime.")) {
            throw new IllegalStateException("TF: the registry bridge is the runtime's own, installed once");
        }
        installed = bridge;
    }

    /**
     * The installed registry. The first enhanced class may reach this package before anything
     * has initialized the registry: a call on its facade does, and the facade installs. (Not
     * from a class initializer here, which would make two classes wait on each other's.)
     */
    static RegistryBridge installed() {
        RegistryBridge bridge = installed;
        if (bridge == null) {
            MethodMonitorRegistry.isLocked();
            bridge = installed;
        }
        return bridge;
    }

    /**
     * The operations of the management bean, for a tool inside this JVM (the TF agent attached
     * at run time) that has no JMX connection: group and factory names are found through
     * {@code loader}, the application's.
     */
    public static TracingFacilityMXBean control(ClassLoader loader) {
        return installed().newControl(Objects.requireNonNull(loader, "loader"));
    }

    /**
     * Registers an enhanced class (its static initializer, through {@link EnhancedCodeSupport}).
     *
     * @param cls the enhanced class, carrying one or more TF annotations
     * @param tracingNames the sorted tracing names of its monitored and info methods; a name's
     *     index is its identifier
     * @param holders the holder of the class's monitor for each of its TF annotations
     */
    protected abstract void registerClass(Class<?> cls, List<String> tracingNames,
            Map<Class<? extends Annotation>, SynchronizedHolder<MethodMonitor>> holders);

    /** The call site of {@code cls} and {@code group}, behind {@link EnhancedCodeSupport#linkMonitor}. */
    protected abstract MutableCallSite callSite(Class<?> cls, Class<? extends Annotation> group);

    /** {@link GuardedSites#declare}: a class the agent is about to define or retransform. */
    protected abstract void declareGuarded(int firstSite, List<String> groups, List<String> tracingNames);

    /** Registers {@code cls} as declared at {@code site}, on the first call of a traced method. */
    protected abstract void registerGuarded(Class<?> cls, int site) throws ClassNotFoundException;

    /** A new management bean's operations, names found through {@code loader}. */
    protected abstract TracingFacilityMXBean newControl(ClassLoader loader);
}
