package org.tracingfacility.runtime.timing;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The timers of one factory: each has an index, a display name and a kind. */
final class TimerTable {
    /** What a timer measures. */
    enum Kind {
        METHOD,
        INTERVAL
    }

    static final class Timer {
        final String className;
        /** A method's {@linkplain MethodLabels label}, an interval's name. */
        final String name;
        final Kind kind;

        Timer(String className, String name, Kind kind) {
            this.className = className;
            this.name = name;
            this.kind = kind;
        }

        /** As {@code jfr view method-timing} shows a method; intervals in brackets. */
        String displayName() {
            if (kind == Kind.METHOD) {
                return className + "." + name;
            }
            return className + " [" + (name.isEmpty() ? "interval" : name) + "]";
        }
    }

    private final List<Timer> timers = new ArrayList<>();
    private final Map<String, Integer> indexByKey = new HashMap<>();

    /**
     * The index of a timer, created if new. Keyed by class name and loader so that a monitor
     * created again for the same class (a new registration) keeps adding to the same timers.
     */
    synchronized int index(Class<?> cls, String name, Kind kind) {
        String key = System.identityHashCode(cls.getClassLoader()) + "/" + cls.getName() + "/" + kind + "/" + name;
        Integer index = indexByKey.get(key);
        if (index == null) {
            index = timers.size();
            timers.add(new Timer(cls.getName(), name, kind));
            indexByKey.put(key, index);
        }
        return index;
    }

    synchronized List<Timer> snapshot() {
        return List.copyOf(timers);
    }
}
