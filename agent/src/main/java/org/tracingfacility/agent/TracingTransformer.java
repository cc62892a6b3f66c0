package org.tracingfacility.agent;

import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The retransforming transformer of run-time tracing. A class being started gets the core's
 * guarded shape of the bytes the JVM hands over; a traced class keeps getting the same
 * traced bytes (whoever retransforms it next); any other class, and every class being loaded,
 * gets null: unchanged. Stopping is forgetting a class and retransforming it: the JVM then
 * gives it its bytes as before start. Never throws into the JVM.
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

    TracingTransformer(ShapeEnhancer enhancer) {
        this.enhancer = enhancer;
    }

    /** The next retransformation of {@code classes} traces them as {@code filters} and {@code groups} say. */
    void begin(List<Class<?>> classes, List<String> groups, List<String> filters) {
        this.groups = List.copyOf(groups);
        this.filters = List.copyOf(filters);
        outcomes.clear();
        for (Class<?> cls : classes) {
            starting.put(cls, Boolean.TRUE);
        }
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
            return null; // a class being loaded: the load-time transformer's business
        }
        byte[] mine = traced.get(redefined);
        if (mine != null || starting.remove(redefined) == null) {
            return mine;
        }
        try {
            byte[] result = enhancer.guarded(redefined.getName(), bytes, groups, filters);
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
}
