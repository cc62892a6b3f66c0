package org.tracingfacility.agent;

import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every supertype of a class (binary names: superclasses, interfaces, their superinterfaces), for
 * filters' {@code Type+} targets: the selector asks whether the named type is among them, and the
 * core gets them with the class, since a class file names only its direct ones.
 *
 * <p>A loaded class answers by reflection. A class loading now must not make its supertypes load
 * from inside the transformer (they load after it, as the JVM defines the class, and loading
 * them here would run class initializers and transformations out of order): their class files
 * are read instead, as resources of the class's loader, and only their heads looked at; each
 * once per loader. A supertype whose class file the loader does not show (generated at run
 * time, say) ends its branch of the chain there.
 */
final class Supertypes {
    /** Direct supertypes by class name, per loader that was asked; the boot loader's apart. */
    private static final Map<ClassLoader, Map<String, List<String>>> BY_LOADER =
            Collections.synchronizedMap(new WeakHashMap<>());
    private static final Map<String, List<String>> BOOT = new ConcurrentHashMap<>();

    private Supertypes() {
    }

    /** Every supertype of a loaded class, nearest first. */
    static List<String> ofLoaded(Class<?> cls) {
        Set<String> found = new LinkedHashSet<>();
        Deque<Class<?>> pending = new ArrayDeque<>();
        pending.add(cls);
        while (!pending.isEmpty()) {
            Class<?> type = pending.poll();
            Class<?> superclass = type.getSuperclass();
            if (superclass != null && found.add(superclass.getName())) {
                pending.add(superclass);
            }
            for (Class<?> implemented : type.getInterfaces()) {
                if (found.add(implemented.getName())) {
                    pending.add(implemented);
                }
            }
        }
        return new ArrayList<>(found);
    }

    /**
     * Every supertype of a class {@code loader} is loading now, nearest first: the direct ones
     * from its bytes, the others from the class files {@code loader} shows as resources.
     */
    static List<String> ofLoading(ClassLoader loader, String binaryName, byte[] classFile) {
        List<String> direct = ClassHeader.directSupertypes(classFile);
        Map<String, List<String>> known = known(loader);
        // Its subclasses, loading later, find it here without reading it again.
        known.put(binaryName, direct);
        Set<String> found = new LinkedHashSet<>();
        Deque<String> pending = new ArrayDeque<>(direct);
        while (!pending.isEmpty()) {
            String name = pending.poll();
            if (!found.add(name)) {
                continue;
            }
            List<String> next = known.get(name);
            if (next == null) {
                next = read(loader, name);
                known.put(name, next);
            }
            pending.addAll(next);
        }
        return new ArrayList<>(found);
    }

    private static Map<String, List<String>> known(ClassLoader loader) {
        if (loader == null) {
            return BOOT;
        }
        synchronized (BY_LOADER) {
            return BY_LOADER.computeIfAbsent(loader, l -> new ConcurrentHashMap<>());
        }
    }

    /** The direct supertypes of {@code name} as its class file shows them; none if not found. */
    private static List<String> read(ClassLoader loader, String name) {
        String resource = name.replace('.', '/') + ".class";
        // The boot loader has no object to ask: the system loader delegates to it, and a class
        // file is never encapsulated in its module.
        try (InputStream in = loader == null ? ClassLoader.getSystemResourceAsStream(resource)
                : loader.getResourceAsStream(resource)) {
            return in == null ? List.of() : ClassHeader.directSupertypes(in.readAllBytes());
        } catch (Exception | LinkageError e) {
            return List.of(); // the chain ends here, as for a class file not found
        }
    }
}
