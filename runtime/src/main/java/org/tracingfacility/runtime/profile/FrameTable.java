package org.tracingfacility.runtime.profile;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The frames of one factory: a monitored method, as {@code class.tracingName}, gets a small
 * integer that call nodes compare instead of strings. Keyed by class loader and name, so a
 * monitor created again for the same class (a new registration) extends the same tree.
 */
final class FrameTable {
    private final List<String> names = new ArrayList<>();
    private final Map<String, Integer> idByKey = new HashMap<>();

    synchronized int id(Class<?> cls, String tracingName) {
        String key = System.identityHashCode(cls.getClassLoader()) + "/" + cls.getName() + "/" + tracingName;
        Integer id = idByKey.get(key);
        if (id == null) {
            id = names.size();
            names.add(cls.getName() + "." + tracingName);
            idByKey.put(key, id);
        }
        return id;
    }

    synchronized String name(int id) {
        return names.get(id);
    }
}
