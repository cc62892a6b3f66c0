package org.tracingfacility.runtime;

import java.lang.annotation.Annotation;
import java.lang.invoke.MutableCallSite;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.tracingfacility.runtime.support.GuardedSites;
import org.tracingfacility.runtime.support.RegistryBridge;
import org.tracingfacility.runtime.support.SynchronizedHolder;
import org.tracingfacility.runtime.support.ThreadsAtWork;

/**
 * The state behind {@link MethodMonitorRegistry}: the registrations, the enhanced classes
 * and their bindings. Every change happens under one lock and ends with every affected
 * holder and call site updated, so a class sees registrations made before and after it
 * loaded.
 */
final class Registry extends RegistryBridge {
    private final Object lock = new Object();

    private final ClassValue<MonitoredClass> classes = new ClassValue<>() {
        @Override
        protected MonitoredClass computeValue(Class<?> type) {
            return new MonitoredClass(type);
        }
    };

    /** Registered classes, weakly: a class value keeps its state alive exactly as long as the class. */
    private final List<WeakReference<MonitoredClass>> registered = new ArrayList<>();
    private final Map<Class<? extends Annotation>, MethodMonitorFactory> registrations = new HashMap<>();
    private GroupResolution resolution = GroupResolution.NONE;
    private volatile boolean locked;

    @Override
    protected void registerClass(Class<?> cls, List<String> methodNames,
            Map<Class<? extends Annotation>, SynchronizedHolder<MethodMonitor>> holders) {
        boolean recorded = ThreadsAtWork.enter();
        try {
            registerAtWork(cls, methodNames, holders);
        } finally {
            if (recorded) {
                ThreadsAtWork.leave();
            }
        }
    }

    private void registerAtWork(Class<?> cls, List<String> methodNames,
            Map<Class<? extends Annotation>, SynchronizedHolder<MethodMonitor>> holders) {
        MonitoredClass monitored = classes.get(cls);
        synchronized (lock) {
            monitored.setMethodNames(methodNames);
            for (Map.Entry<Class<? extends Annotation>, SynchronizedHolder<MethodMonitor>> entry : holders.entrySet()) {
                monitored.binding(entry.getKey()).holder = entry.getValue();
            }
            if (!monitored.registered) {
                monitored.registered = true;
                registered.add(new WeakReference<>(monitored));
            }
            List<MutableCallSite> changed = new ArrayList<>();
            for (MonitorBinding binding : monitored.bindings.values()) {
                refresh(monitored.cls, binding, changed, true);
            }
            sync(changed);
        }
    }

    /**
     * What the agent declared for the guarded sites whose class has not registered yet, by
     * site: the class's groups and names, to register on the first call of a traced method.
     */
    private final Map<Integer, Declaration> declared = new HashMap<>();

    /** A declared class: its TF groups (binary names, the i-th at {@code firstSite + i}) and names. */
    private static final class Declaration {
        final int firstSite;
        final List<String> groups;
        final List<String> tracingNames;

        Declaration(int firstSite, List<String> groups, List<String> tracingNames) {
            this.firstSite = firstSite;
            this.groups = List.copyOf(groups);
            this.tracingNames = List.copyOf(tracingNames);
        }
    }

    /** Records a class the agent is about to define or retransform at {@code firstSite} on. */
    @Override
    protected void declareGuarded(int firstSite, List<String> groups, List<String> tracingNames) {
        synchronized (lock) {
            Declaration declaration = new Declaration(firstSite, groups, tracingNames);
            for (int i = 0; i < declaration.groups.size(); i++) {
                declared.put(firstSite + i, declaration);
                publishDeclared(firstSite + i, declaration.groups.get(i));
            }
        }
    }

    /** A declared site: the stand-in while a factory may apply to its group, else empty. */
    private void publishDeclared(int site, String group) {
        if (resolution.mayApplyTo(group)) {
            GuardedSites.publishPending(site);
        } else {
            GuardedSites.publish(site, null);
        }
    }

    /**
     * Registers {@code cls} as the agent declared it at {@code site} (the first call of one of
     * its traced methods), its groups resolved by its own loader; then every site of the class
     * holds its monitor. A site declared no longer (registered by another thread) is left be.
     */
    @Override
    protected void registerGuarded(Class<?> cls, int site) throws ClassNotFoundException {
        synchronized (lock) {
            Declaration declaration = declared.get(site);
            if (declaration == null) {
                return;
            }
            Map<Class<? extends Annotation>, SynchronizedHolder<MethodMonitor>> holders = new LinkedHashMap<>();
            List<Class<? extends Annotation>> groups = new ArrayList<>();
            for (String name : declaration.groups) {
                Class<?> group = Class.forName(name, false, cls.getClassLoader());
                groups.add(group.asSubclass(Annotation.class));
                holders.put(group.asSubclass(Annotation.class), new SynchronizedHolder<>());
            }
            MonitoredClass monitored = classes.get(cls);
            for (int i = 0; i < groups.size(); i++) {
                declared.remove(declaration.firstSite + i);
                monitored.binding(groups.get(i)).moveTo(declaration.firstSite + i);
            }
            registerClass(cls, declaration.tracingNames, holders);
        }
    }

    @Override
    protected TracingFacilityMXBean newControl(ClassLoader loader) {
        return new TracingFacilityBean(loader);
    }

    @Override
    protected MutableCallSite callSite(Class<?> cls, Class<? extends Annotation> annotation) {
        MonitoredClass monitored = classes.get(cls);
        synchronized (lock) {
            boolean known = monitored.bindings.containsKey(annotation);
            MonitorBinding binding = monitored.binding(annotation);
            if (monitored.registered && !known) {
                // An annotation the class did not register: monitor it all the same.
                refresh(cls, binding, new ArrayList<>(), true);
            }
            // Before registration the target stays null: registerClass will retarget it.
            return binding.callSite();
        }
    }

    void register(Class<? extends Annotation> annotation, MethodMonitorFactory factory) {
        boolean recorded = ThreadsAtWork.enter();
        try {
            synchronized (lock) {
                if (locked) {
                    throw new SecurityException("TF: the method monitor registry is locked; "
                            + "cannot register a factory on " + annotation.getName());
                }
                registrations.put(annotation, factory);
                refreshAll();
            }
        } finally {
            if (recorded) {
                ThreadsAtWork.leave();
            }
        }
    }

    void clear(Class<? extends Annotation> annotation) {
        boolean recorded = ThreadsAtWork.enter();
        try {
            synchronized (lock) {
                if (registrations.remove(annotation) != null) {
                    refreshAll();
                }
            }
        } finally {
            if (recorded) {
                ThreadsAtWork.leave();
            }
        }
    }

    MethodMonitorFactory registeredFactory(Class<? extends Annotation> annotation) {
        synchronized (lock) {
            return registrations.get(annotation);
        }
    }

    Map<Class<? extends Annotation>, MethodMonitorFactory> registrations() {
        synchronized (lock) {
            return Map.copyOf(registrations);
        }
    }

    void lock() {
        locked = true;
    }

    boolean isLocked() {
        return locked;
    }

    /** The monitor of a registered class for one of its TF annotations. */
    MethodMonitor monitorFor(Class<?> cls, Class<? extends Annotation> annotation) {
        synchronized (lock) {
            MonitorBinding binding = registeredClass(cls).bindings.get(annotation);
            if (binding == null || binding.holder == null) {
                throw new IllegalArgumentException(annotation.getName() + " is not a TF annotation of "
                        + cls.getName());
            }
            return binding.monitor;
        }
    }

    List<String> methodNames(Class<?> cls) {
        synchronized (lock) {
            return registeredClass(cls).methodNames;
        }
    }

    /** The TF annotations a registered class declared, in registration order. */
    List<Class<? extends Annotation>> groups(Class<?> cls) {
        synchronized (lock) {
            List<Class<? extends Annotation>> result = new ArrayList<>();
            for (MonitorBinding binding : registeredClass(cls).bindings.values()) {
                if (binding.holder != null) {
                    result.add(binding.annotation);
                }
            }
            return result;
        }
    }

    int identifier(Class<?> cls, String name) {
        synchronized (lock) {
            return registeredClass(cls).identifier(name);
        }
    }

    /** The TF annotations of the registered classes and the registrations, with their subgroups. */
    Set<Class<? extends Annotation>> knownGroups() {
        List<Class<? extends Annotation>> roots = new ArrayList<>();
        synchronized (lock) {
            roots.addAll(registrations.keySet());
            for (MonitoredClass monitored : liveClasses()) {
                for (MonitorBinding binding : monitored.bindings.values()) {
                    if (binding.holder != null) {
                        roots.add(binding.annotation);
                    }
                }
            }
        }
        return GroupResolution.closure(roots);
    }

    /** The registered classes still loaded. */
    List<Class<?>> registeredClasses() {
        synchronized (lock) {
            List<Class<?>> result = new ArrayList<>();
            for (MonitoredClass monitored : liveClasses()) {
                result.add(monitored.cls);
            }
            return result;
        }
    }

    private MonitoredClass registeredClass(Class<?> cls) {
        MonitoredClass monitored = classes.get(cls);
        if (!monitored.registered) {
            throw new IllegalArgumentException(cls.getName() + " is not a registered TF-enhanced class");
        }
        return monitored;
    }

    private void refreshAll() {
        resolution = GroupResolution.of(registrations);
        for (Map.Entry<Integer, Declaration> site : declared.entrySet()) {
            Declaration declaration = site.getValue();
            publishDeclared(site.getKey(), declaration.groups.get(site.getKey() - declaration.firstSite));
        }
        List<MutableCallSite> changed = new ArrayList<>();
        for (MonitoredClass monitored : liveClasses()) {
            for (MonitorBinding binding : monitored.bindings.values()) {
                refresh(monitored.cls, binding, changed, false);
            }
        }
        sync(changed);
    }

    /** Live registered classes; forgets the unloaded ones. */
    private List<MonitoredClass> liveClasses() {
        List<MonitoredClass> live = new ArrayList<>(registered.size());
        for (Iterator<WeakReference<MonitoredClass>> it = registered.iterator(); it.hasNext();) {
            MonitoredClass monitored = it.next().get();
            if (monitored == null) {
                it.remove();
            } else {
                live.add(monitored);
            }
        }
        return live;
    }

    /**
     * Gives the binding a new monitor if the factories that apply to its annotation changed
     * (or {@code force}, when the class has just handed over its holder).
     */
    private void refresh(Class<?> cls, MonitorBinding binding, List<MutableCallSite> changed, boolean force) {
        List<MethodMonitorFactory> factories = resolution.factoriesFor(binding.annotation);
        if (!force && sameFactories(factories, binding.factories)) {
            return;
        }
        binding.factories = factories;
        binding.publish(create(cls, factories), changed);
    }

    private static boolean sameFactories(List<MethodMonitorFactory> a, List<MethodMonitorFactory> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (a.get(i) != b.get(i)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The monitor for a class under the given factories, {@linkplain ReentryGuard guarded}
     * against its own events. A factory that fails leaves the class unmonitored (and says
     * why) rather than failing the class's initialization or the registration of other classes.
     */
    private static MethodMonitor create(Class<?> cls, List<MethodMonitorFactory> factories) {
        if (factories.isEmpty()) {
            return null;
        }
        MethodMonitorFactory factory = factories.size() == 1
                ? factories.get(0)
                : MethodMonitorFactoryDefaults.compose(factories);
        try {
            return ReentryGuard.guard(factory.create(cls), factories);
        } catch (RuntimeException e) {
            System.err.println("TF: " + factory + " could not create a monitor for " + cls.getName()
                    + "; the class stays unmonitored: " + e);
            return null;
        }
    }

    private static void sync(List<MutableCallSite> changed) {
        if (!changed.isEmpty()) {
            MutableCallSite.syncAll(changed.toArray(new MutableCallSite[0]));
        }
    }
}
