package org.tracingfacility.agent;

import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.tracingfacility.runtime.support.ThreadsAtWork;

/**
 * The retransforming transformer of run-time tracing. A class being started gets the core's
 * guarded shape of the bytes the JVM hands over; a traced class keeps getting the same
 * traced bytes (whoever retransforms it next); a class loading while tracing is started gets
 * the guarded shape when the start's filters may select it (as JFR's {@code JFR.start
 * method-timing=} reaches classes loaded later); any other class gets null: unchanged.
 * Stopping is forgetting a class and retransforming it: the JVM then gives it its bytes as
 * before start (for a class traced as it loaded, its bytes as loaded). Never throws into the JVM.
 */
final class TracingTransformer implements ClassFileTransformer {
    /** What became of a class handed to {@link #begin}. */
    static final class Outcome {
        /** Null: traced, or nothing selected in it ({@link #traced}). */
        final String refusal;
        final boolean badFilter;
        final boolean traced;

        Outcome(String refusal, boolean badFilter, boolean traced) {
            this.refusal = refusal;
            this.badFilter = badFilter;
            this.traced = traced;
        }
    }

    private final ShapeEnhancer enhancer;
    /** The bytes a traced class runs with. */
    private final Map<Class<?>, byte[]> traced = new ConcurrentHashMap<>();
    /** The classes of the start under way, and what became of each. */
    private final Map<Class<?>, Outcome> outcomes = new ConcurrentHashMap<>();
    private final Map<Class<?>, Boolean> starting = new ConcurrentHashMap<>();
    private volatile List<String> groups = List.of();
    private volatile List<String> filters = List.of();
    /** The start's filters as a selector: whether its classes' supertypes go to the core. */
    private volatile ClassSelector selecting;
    /** While a start is in force: which loading classes may be selected; null otherwise. */
    private volatile ClassSelector loading;
    /** Whether JDK classes may be traced as they load (tf-runtime on the boot class path). */
    private volatile boolean jdkLoading;
    /** Classes traced as they loaded, by loader and name, until stop: {@code name@loader identity}. */
    private final Map<String, Boolean> tracedAtLoad = new ConcurrentHashMap<>();
    private BootstrapRuntime runtime;

    TracingTransformer(ShapeEnhancer enhancer) {
        this.enhancer = enhancer;
    }

    /** The next retransformation of {@code classes} traces them as {@code filters} and {@code groups} say. */
    void begin(List<Class<?>> classes, List<String> groups, List<String> filters) {
        this.groups = List.copyOf(groups);
        this.filters = List.copyOf(filters);
        this.selecting = new ClassSelector(this.filters);
        outcomes.clear();
        for (Class<?> cls : classes) {
            starting.put(cls, Boolean.TRUE);
        }
    }

    /**
     * From now until {@link #stopLoading}, classes loading that {@code filters} may select are
     * traced as they load; JDK classes only when {@code runtime} (tf-runtime on the boot class
     * path) is there for them to call.
     */
    void traceLoading(List<String> filters, BootstrapRuntime runtime) {
        this.runtime = runtime;
        this.jdkLoading = runtime != null;
        this.loading = new ClassSelector(List.copyOf(filters));
    }

    /** Classes loading from now on are not traced; those traced as they loaded are forgotten. */
    void stopLoading() {
        loading = null;
        tracedAtLoad.clear();
    }

    /** Whether {@code cls} was traced as it loaded, since the start in force. */
    boolean tracedAsItLoaded(Class<?> cls) {
        return tracedAtLoad.containsKey(loadKey(cls.getClassLoader(), cls.getName()));
    }

    /** How many classes were traced as they loaded since the start in force. */
    int tracedAsTheyLoaded() {
        return tracedAtLoad.size();
    }

    private static String loadKey(ClassLoader loader, String name) {
        return name + "@" + System.identityHashCode(loader);
    }

    /** What became of {@code cls} since {@link #begin}; null if the JVM did not hand it over. */
    Outcome outcome(Class<?> cls) {
        return outcomes.get(cls);
    }

    /** Ends a start: classes not traced by now are not. */
    void end() {
        starting.clear();
    }

    /** The JVM refused the traced bytes of {@code cls}: it runs as before. */
    void refused(Class<?> cls) {
        traced.remove(cls);
    }

    /** Forgets every traced class; retransforming them then restores them. */
    List<Class<?>> forgetAll() {
        List<Class<?>> classes = new ArrayList<>(traced.keySet());
        traced.clear();
        return classes;
    }

    boolean isTraced(Class<?> cls) {
        return traced.containsKey(cls);
    }

    List<Class<?>> tracedClasses() {
        return new ArrayList<>(traced.keySet());
    }

    @Override
    public byte[] transform(ClassLoader loader, String internalName, Class<?> redefined, ProtectionDomain domain,
            byte[] bytes) {
        if (redefined == null) {
            return loading(loader, internalName, bytes);
        }
        byte[] mine = traced.get(redefined);
        if (mine != null || starting.remove(redefined) == null) {
            return mine;
        }
        try {
            ClassLoader definer = redefined.getClassLoader();
            byte[] classFile = definer == null || definer == ClassLoader.getPlatformClassLoader()
                    ? JdkClassFiles.withFrames(redefined, internalName, bytes) : bytes;
            List<String> supertypes = selecting != null && selecting.needsSupertypes()
                    ? Supertypes.ofLoaded(redefined) : List.of();
            byte[] result = enhancer.guarded(redefined.getName(), classFile, supertypes, groups, filters);
            if (result != null) {
                traced.put(redefined, result);
            }
            outcomes.put(redefined, new Outcome(null, false, result != null));
            return result;
        } catch (ShapeEnhancer.Refusal e) {
            outcomes.put(redefined, new Outcome(e.getMessage(), e.badFilter, false));
        } catch (RuntimeException | LinkageError e) {
            outcomes.put(redefined, new Outcome("the agent failed on it: " + e, false, false));
        }
        return null;
    }

    /** A class loading while a start is in force: traced when its filters may select it. */
    private byte[] loading(ClassLoader loader, String internalName, byte[] bytes) {
        ClassSelector selector = loading;
        if (selector == null || internalName == null) {
            return null;
        }
        boolean recorded = ThreadsAtWork.enter();
        try {
            String name = internalName.replace('/', '.');
            boolean jdk = loader == null || loader == ClassLoader.getPlatformClassLoader();
            LoaderGroups loaderGroups = LoaderGroups.of(loader);
            List<String> supertypes = selector.needsSupertypes()
                    ? Supertypes.ofLoading(loader, name, bytes) : List.of();
            boolean selected = (jdk ? jdkLoading && selector.selectsJdkClass(name, bytes)
                    : selector.worthACall(name, bytes, loaderGroups.descriptors))
                    || ((!jdk || jdkLoading) && selector.namesASupertype(supertypes));
            if (!selected || RefusedClasses.reason(name) != null) {
                return null;
            }
            List<String> known = new ArrayList<>(groups);
            for (String group : loaderGroups.names) {
                if (!known.contains(group)) {
                    known.add(group);
                }
            }
            byte[] result = enhancer.guarded(name, bytes, supertypes, known, filters);
            if (result != null) {
                tracedAtLoad.put(loadKey(loader, name), Boolean.TRUE);
                if (runtime != null) {
                    runtime.resolveAhead(loader);
                }
            }
            return result;
        } catch (ShapeEnhancer.Refusal | RuntimeException | LinkageError e) {
            return null; // the class loads as it was
        } finally {
            if (recorded) {
                ThreadsAtWork.leave();
            }
        }
    }
}
