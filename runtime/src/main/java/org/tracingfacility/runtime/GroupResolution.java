package org.tracingfacility.runtime;

import java.lang.annotation.Annotation;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.tracingfacility.annotation.Filtered;
import org.tracingfacility.annotation.MethodMonitorGroup;

/**
 * Which factories apply to each TF annotation, given the registrations.
 *
 * <p>A group's own registration wins. Otherwise a group gets the factories of the nearest
 * registered groups above it: a factory registered on a group reaches every subgroup,
 * transitively, and stops at a subgroup registered on its own; a subgroup reached from
 * several registered groups gets all their factories, each once, in the order of the
 * registered groups' names.
 */
final class GroupResolution {
    private static final Comparator<Class<?>> BY_NAME = new Comparator<Class<?>>() {
        @Override
        public int compare(Class<?> a, Class<?> b) {
            return a.getName().compareTo(b.getName());
        }
    };

    private final Map<Class<? extends Annotation>, List<MethodMonitorFactory>> effective;
    /** The binary names of {@link #effective}'s groups. */
    private final Set<String> names = new HashSet<>();

    private GroupResolution(Map<Class<? extends Annotation>, List<MethodMonitorFactory>> effective) {
        this.effective = effective;
        for (Class<? extends Annotation> group : effective.keySet()) {
            names.add(group.getName());
        }
    }

    /**
     * Whether a factory may apply to the group of this binary name: by name, since a class
     * the agent declared has not resolved its groups yet (a name in two loaders counts once).
     */
    boolean mayApplyTo(String groupName) {
        return names.contains(groupName);
    }

    static final GroupResolution NONE = new GroupResolution(Map.of());

    /** The factories that apply to {@code annotation}, in composition order; empty if none. */
    List<MethodMonitorFactory> factoriesFor(Class<? extends Annotation> annotation) {
        return effective.getOrDefault(annotation, List.of());
    }

    static GroupResolution of(Map<Class<? extends Annotation>, MethodMonitorFactory> registrations) {
        List<Class<? extends Annotation>> registered = new ArrayList<>(registrations.keySet());
        registered.sort(BY_NAME);
        Map<Class<? extends Annotation>, List<MethodMonitorFactory>> reached = new HashMap<>();
        for (Class<? extends Annotation> group : registered) {
            MethodMonitorFactory factory = registrations.get(group);
            add(reached, group, factory);
            for (Class<? extends Annotation> sub : subgroupsBelow(group, registrations.keySet())) {
                add(reached, sub, factory);
            }
        }
        Map<Class<? extends Annotation>, List<MethodMonitorFactory>> effective = new HashMap<>();
        for (Map.Entry<Class<? extends Annotation>, List<MethodMonitorFactory>> entry : reached.entrySet()) {
            effective.put(entry.getKey(), List.copyOf(entry.getValue()));
        }
        return new GroupResolution(effective);
    }

    /**
     * Adds a factory once, keeping the order of first addition. Compared by identity:
     * factories rarely define equals, and one instance registered on two parents must not
     * see every event twice.
     */
    private static void add(Map<Class<? extends Annotation>, List<MethodMonitorFactory>> reached,
            Class<? extends Annotation> group, MethodMonitorFactory factory) {
        List<MethodMonitorFactory> factories = reached.get(group);
        if (factories == null) {
            factories = new ArrayList<>();
            reached.put(group, factories);
        }
        for (MethodMonitorFactory present : factories) {
            if (present == factory) {
                return;
            }
        }
        factories.add(factory);
    }

    /**
     * The subgroups of {@code group}, transitively, not descending into (nor including)
     * groups that have a registration of their own. Cycles are tolerated.
     */
    private static Set<Class<? extends Annotation>> subgroupsBelow(Class<? extends Annotation> group,
            Set<Class<? extends Annotation>> ownRegistrations) {
        Set<Class<? extends Annotation>> found = new LinkedHashSet<>();
        Deque<Class<? extends Annotation>> pending = new ArrayDeque<>();
        pushAll(pending, directSubgroups(group));
        while (!pending.isEmpty()) {
            Class<? extends Annotation> sub = pending.pop();
            if (sub == group || ownRegistrations.contains(sub) || !found.add(sub)) {
                continue;
            }
            pushAll(pending, directSubgroups(sub));
        }
        return found;
    }

    /**
     * Adds each of {@code groups} at the end, one by one: {@code ArrayDeque}'s own copying
     * ({@code addAll}, its copy constructor) links a lambda, milliseconds of an agent's start-up
     * when the registry initializes.
     */
    private static void pushAll(Deque<Class<? extends Annotation>> pending,
            Iterable<Class<? extends Annotation>> groups) {
        for (Class<? extends Annotation> group : groups) {
            pending.addLast(group);
        }
    }

    /** Every group reachable from {@code roots} through subgroup links, roots included. */
    static Set<Class<? extends Annotation>> closure(Iterable<Class<? extends Annotation>> roots) {
        Set<Class<? extends Annotation>> found = new HashSet<>();
        Deque<Class<? extends Annotation>> pending = new ArrayDeque<>();
        for (Class<? extends Annotation> root : roots) {
            pending.add(root);
        }
        while (!pending.isEmpty()) {
            Class<? extends Annotation> group = pending.pop();
            if (found.add(group)) {
                pushAll(pending, directSubgroups(group));
            }
        }
        return found;
    }

    /** The subgroups that {@code group}'s {@code @MethodMonitorGroup} lists; none if unreadable. */
    static List<Class<? extends Annotation>> directSubgroups(Class<? extends Annotation> group) {
        if (group == Filtered.class) {
            // Lists none. Not read: a JVM's first annotation read generates a proxy class,
            // tens of milliseconds of the agent's start-up.
            return List.of();
        }
        try {
            MethodMonitorGroup meta = group.getAnnotation(MethodMonitorGroup.class);
            return meta == null ? List.of() : List.of(meta.value());
        } catch (RuntimeException | LinkageError e) {
            // A subgroup class missing from the class path: the rest of the tree still works.
            return List.of();
        }
    }
}
