package org.tracingfacility.runtime;

import java.lang.annotation.Annotation;
import org.tracingfacility.annotation.Filtered;
import org.tracingfacility.annotation.MethodMonitorGroup;

/**
 * What a TF annotation is, as the enhancer decides it: an annotation type that carries
 * {@code @MethodMonitorGroup}, or one that a TF annotation's {@code @MethodMonitorGroup}
 * lists as a subgroup (which need not carry it). A subgroup is found among the groups the
 * registry knows and their subgroups, and in the {@code META-INF/tf/tfannotations.properties}
 * that the enhancer writes (it lists subgroups too), so one can be registered on its own
 * before any class of its group has loaded.
 */
final class TfAnnotationRule {
    static final String DEFINITION = "a TF annotation is an annotation type that carries @MethodMonitorGroup,"
            + " or that the @MethodMonitorGroup of a TF annotation lists as a subgroup";

    private TfAnnotationRule() {
    }

    /**
     * Returns {@code cls} as a TF annotation.
     *
     * @throws IllegalArgumentException saying what a TF annotation is, if {@code cls} is not one
     */
    static Class<? extends Annotation> require(Class<?> cls) {
        // Filtered, TF's own group, without reading its annotations (see GroupResolution.directSubgroups).
        if (cls == Filtered.class
                || cls.isAnnotation() && (cls.isAnnotationPresent(MethodMonitorGroup.class) || isKnownSubgroup(cls))) {
            return cls.asSubclass(Annotation.class);
        }
        throw new IllegalArgumentException(cls.getName() + " is not a TF annotation: " + DEFINITION);
    }

    private static boolean isKnownSubgroup(Class<?> cls) {
        if (MethodMonitorRegistry.knownGroups().contains(cls)) {
            return true;
        }
        ClassLoader own = cls.getClassLoader();
        return own != null && GroupNames.listed(own).contains(cls.getName())
                || GroupNames.listed(StartupConfiguration.classLoader()).contains(cls.getName());
    }
}
