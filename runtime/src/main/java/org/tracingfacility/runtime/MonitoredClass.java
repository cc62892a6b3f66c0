package org.tracingfacility.runtime;

import java.lang.annotation.Annotation;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the registry knows about one enhanced class. Reachable from the class itself
 * (through a {@link ClassValue}) and only weakly from the registry, so that enhanced
 * classes can still be unloaded. Guarded by the registry's lock.
 */
final class MonitoredClass {
    final Class<?> cls;
    /** The sorted tracing names; a method's identifier is its index. Empty until registered. */
    List<String> methodNames = List.of();
    private Map<String, Integer> identifiers = Map.of();
    boolean registered;
    final Map<Class<? extends Annotation>, MonitorBinding> bindings = new LinkedHashMap<>();

    MonitoredClass(Class<?> cls) {
        this.cls = cls;
    }

    void setMethodNames(List<String> names) {
        methodNames = List.copyOf(names);
        Map<String, Integer> byName = new HashMap<>();
        for (int i = 0; i < methodNames.size(); i++) {
            byName.putIfAbsent(methodNames.get(i), i);
        }
        identifiers = byName;
    }

    /** The identifier of a tracing name, or -1. */
    int identifier(String name) {
        Integer id = identifiers.get(name);
        return id == null ? -1 : id;
    }

    MonitorBinding binding(Class<? extends Annotation> annotation) {
        MonitorBinding binding = bindings.get(annotation);
        if (binding == null) {
            binding = new MonitorBinding(annotation);
            bindings.put(annotation, binding);
        }
        return binding;
    }
}
