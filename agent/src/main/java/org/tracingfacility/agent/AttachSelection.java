package org.tracingfacility.agent;

import java.lang.annotation.Annotation;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * Which loaded classes a run-time start hands to the core: those a filter could select, and
 * those carrying a TF annotation that a {@code monitor=} names. A class's bytes are not at hand
 * before it is retransformed, so where the load-time {@link ClassSelector} looks into the class
 * file ({@code ::method}, {@code @Annotation} targets) this looks at the loaded class. A
 * superset is harmless (the core leaves a class it selects nothing in as it is) but costs a
 * retransformation; the core decides about methods.
 *
 * <p>The JDK's classes are selected only by a target naming their class or package, or by a
 * {@code Type+} target (the loaded class's supertypes, by reflection), as at load time.
 */
final class AttachSelection {
    /** The annotation that makes an annotation type a TF group. */
    static final String METHOD_MONITOR_GROUP = "org.tracingfacility.annotation.MethodMonitorGroup";

    private final ClassSelector byName;
    private final List<String> methodNames = new ArrayList<>();
    private final List<String> annotations = new ArrayList<>();
    private final Set<String> monitoredGroups;

    private AttachSelection(Collection<String> filters, Set<String> monitoredGroups) {
        this.byName = new ClassSelector(List.copyOf(filters));
        this.monitoredGroups = monitoredGroups;
        for (String filter : filters) {
            int equals = filter.indexOf('=');
            for (String target : (equals >= 0 ? filter.substring(equals + 1) : filter).split(";")) {
                String trimmed = target.trim();
                if (trimmed.startsWith("::")) {
                    methodNames.add(trimmed.substring(2));
                } else if (trimmed.startsWith("@")) {
                    annotations.add(trimmed.substring(1));
                }
            }
        }
    }

    /**
     * The selection of {@code filters} (checked by the core) and of the groups {@code monitor=}
     * names ({@code monitoredGroups}, by simple or full name).
     */
    static AttachSelection of(Collection<String> filters, Set<String> monitoredGroups) {
        return new AttachSelection(filters, monitoredGroups);
    }

    /** Whether {@code cls} goes to the core; {@code groups} are its TF annotations' full names. */
    boolean selects(Class<?> cls, List<String> groups) {
        for (String group : groups) {
            if (monitoredGroups.contains(group) || monitoredGroups.contains(simpleName(group))) {
                return true;
            }
        }
        if (byName.needsSupertypes() && byName.namesASupertype(Supertypes.ofLoaded(cls))) {
            return true;
        }
        ClassLoader loader = cls.getClassLoader();
        if (loader == null || loader == ClassLoader.getPlatformClassLoader()) {
            return byName.selectsJdkClass(cls.getName());
        }
        return byName.namesClass(cls.getName()) || declaresSelected(cls);
    }

    /** For {@code ::method} and {@code @Annotation} targets: a method or the class matches. */
    private boolean declaresSelected(Class<?> cls) {
        if (methodNames.isEmpty() && annotations.isEmpty()) {
            return false;
        }
        try {
            if (carries(cls.getDeclaredAnnotations())) {
                return true;
            }
            List<Executable> executables = new ArrayList<>(List.of(cls.getDeclaredMethods()));
            executables.addAll(List.<Constructor<?>>of(cls.getDeclaredConstructors()));
            for (Executable executable : executables) {
                String name = executable instanceof Method ? executable.getName() : "<init>";
                if (methodNames.contains(name) || carries(executable.getDeclaredAnnotations())) {
                    return true;
                }
            }
            return methodNames.contains("<clinit>");
        } catch (RuntimeException | LinkageError e) {
            // Its signatures or annotations do not resolve here: the core reads the bytes.
            return true;
        }
    }

    private boolean carries(Annotation[] present) {
        for (Annotation a : present) {
            if (annotations.contains(a.annotationType().getName())) {
                return true;
            }
        }
        return false;
    }

    /** The full names of the TF annotations on {@code cls} (none if they do not resolve). */
    static List<String> tfGroupsOf(Class<?> cls) {
        List<String> groups = new ArrayList<>();
        try {
            for (Annotation a : cls.getDeclaredAnnotations()) {
                for (Annotation meta : a.annotationType().getDeclaredAnnotations()) {
                    if (meta.annotationType().getName().equals(METHOD_MONITOR_GROUP)) {
                        groups.add(a.annotationType().getName());
                    }
                }
            }
        } catch (RuntimeException | LinkageError e) {
            return List.of();
        }
        return groups;
    }

    private static String simpleName(String binaryName) {
        String afterPackage = binaryName.substring(binaryName.lastIndexOf('.') + 1);
        return afterPackage.substring(afterPackage.lastIndexOf('$') + 1);
    }
}
