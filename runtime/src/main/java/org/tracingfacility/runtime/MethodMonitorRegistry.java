package org.tracingfacility.runtime;

import java.lang.annotation.Annotation;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.tracingfacility.runtime.support.RegistryBridge;

/**
 * Controls the whole tracing facility: which {@link MethodMonitorFactory} is attached to
 * which TF annotation, and the method names of every enhanced class.
 *
 * <p>{@link #register} and {@link #clear} take effect at once for every enhanced class
 * carrying the annotation or one of its subgroups, whether it was loaded before or after
 * the call. A factory registered on a group applies to all its subgroups, transitively,
 * unless a subgroup has a registration of its own; a subgroup under several registered
 * groups gets the composition of their factories.
 *
 * <p>Start-up configuration, read when this class initializes (on the first enhanced class):
 * <ul>
 *   <li>{@code -Dtf.monitor=Group=factory[,Group=factory...]} (or {@code ;} between entries)
 *       registers factories by name (a built-in one: {@code noOp, dprint, operationTracer,
 *       timing, jfr}; a {@link MethodMonitorFactoryProvider}'s; or a factory class's full
 *       name) on groups named by their simple
 *       or full annotation name, as listed in {@code META-INF/tf/tfannotations.properties};
 *   <li>{@code -Dtf.registry.locked=true} then {@linkplain #lock() locks} the registry;
 *   <li>{@code -Dtf.jmx=false} keeps the management bean
 *       ({@code org.tracingfacility:type=MethodMonitorRegistry}) out of the platform MBean server.
 * </ul>
 *
 * <p>Queries are named by what they answer ({@link #methodName}, {@link #registrations}),
 * changes by a verb ({@link #register}, {@link #clear}, {@link #lock}).
 */
public final class MethodMonitorRegistry {
    private static final Registry REGISTRY = new Registry();

    static {
        // Before anything else: generated code reaches the registry through the bridge.
        RegistryBridge.install(REGISTRY);
        StartupConfiguration.applySystemProperties();
    }

    private MethodMonitorRegistry() {
    }

    /**
     * The tracing name of a method of a registered class.
     *
     * @throws IllegalArgumentException if {@code cls} is not registered or has no such identifier
     */
    public static String methodName(Class<?> cls, int identifier) {
        List<String> names = REGISTRY.methodNames(cls);
        if (identifier < 0 || identifier >= names.size()) {
            throw new IllegalArgumentException(cls.getName() + " has no method with identifier " + identifier);
        }
        return names.get(identifier);
    }

    /**
     * The tracing names of a registered class's monitored and info methods, sorted; a name's
     * index is its identifier.
     *
     * @throws IllegalArgumentException if {@code cls} is not registered
     */
    public static List<String> methodNames(Class<?> cls) {
        return REGISTRY.methodNames(cls);
    }

    /**
     * The TF annotations (groups) a registered class carries, as its enhancement recorded them:
     * what a monitor can report as the group of the class's methods.
     *
     * @throws IllegalArgumentException if {@code cls} is not registered
     */
    public static List<Class<? extends Annotation>> groups(Class<?> cls) {
        Objects.requireNonNull(cls, "cls");
        return REGISTRY.groups(cls);
    }

    /**
     * The identifier of a tracing name in a registered class, or -1 if the class has no
     * method of that name.
     *
     * @throws IllegalArgumentException if {@code cls} is not registered
     */
    public static int methodIdentifier(Class<?> cls, String mname) {
        return REGISTRY.identifier(cls, mname);
    }

    /**
     * Attaches a factory to a TF annotation, replacing the previous one.
     *
     * @throws IllegalArgumentException if {@code annot} is not a TF annotation: an annotation
     *     type carrying {@code @MethodMonitorGroup}, or a subgroup that another TF annotation's
     *     {@code @MethodMonitorGroup} lists
     * @throws SecurityException if the registry is {@linkplain #lock() locked}
     */
    public static void register(Class<? extends Annotation> annot, MethodMonitorFactory mmf) {
        requireGroup(annot);
        Objects.requireNonNull(mmf, "mmf");
        REGISTRY.register(annot, mmf);
    }

    /** Removes the factory (if any) attached to {@code annot}. Allowed even when locked. */
    public static void clear(Class<? extends Annotation> annot) {
        Objects.requireNonNull(annot, "annot");
        REGISTRY.clear(annot);
    }

    /** The factory registered on {@code annot} itself, or null. */
    public static MethodMonitorFactory registeredFactory(Class<? extends Annotation> annot) {
        Objects.requireNonNull(annot, "annot");
        return REGISTRY.registeredFactory(annot);
    }

    /**
     * The monitor in use for a class and one of its TF annotations, or null if none: the one
     * enhanced code calls, which is the factory's monitor behind a guard that keeps it from
     * being re-entered (monitors of {@code timing}, {@code jfr} and {@code noOp} need none).
     *
     * @throws IllegalArgumentException if {@code cls} is not a registered enhanced class or
     *     {@code annot} is not one of its TF annotations
     */
    public static MethodMonitor monitor(final Class<?> cls, final Class<? extends Annotation> annot) {
        Objects.requireNonNull(cls, "cls");
        Objects.requireNonNull(annot, "annot");
        return REGISTRY.monitorFor(cls, annot);
    }

    /**
     * Locks registration: from now on, {@link #register} throws {@link SecurityException}.
     * Irreversible. {@link #clear} stays allowed, since it only takes visibility away.
     */
    public static void lock() {
        REGISTRY.lock();
    }

    /** Whether {@link #lock()} has been called (or {@code -Dtf.registry.locked=true} given). */
    public static boolean isLocked() {
        return REGISTRY.isLocked();
    }

    /** Every factory registration, by annotation. */
    public static Map<Class<? extends Annotation>, MethodMonitorFactory> registrations() {
        return REGISTRY.registrations();
    }

    /**
     * The TF annotations known to the registry: those of the registered classes, those with
     * a registration, and their subgroups. For the management bean and the resolution of
     * group names.
     */
    static Set<Class<? extends Annotation>> knownGroups() {
        return REGISTRY.knownGroups();
    }

    /** The registered enhanced classes that are still loaded (for the management bean). */
    static List<Class<?>> registeredClasses() {
        return REGISTRY.registeredClasses();
    }

    private static void requireGroup(Class<? extends Annotation> annot) {
        Objects.requireNonNull(annot, "annot");
        TfAnnotationRule.require(annot);
    }
}
