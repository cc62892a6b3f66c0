package org.tracingfacility.runtime;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import org.tracingfacility.annotation.TracingName;

/**
 * The group of each monitored method of a class, for monitors that report it (a span
 * attribute, a metric tag): the class's TF annotations that the method itself carries, or,
 * for a method carrying none of them (selected by a filter, say), all of the class's.
 * Several are joined with {@code ","}; each is the annotation's simple name.
 */
public final class MethodGroups {
    private MethodGroups() {
    }

    /**
     * The group of each method identifier of a registered class.
     *
     * @throws IllegalArgumentException if {@code cls} is not registered
     */
    public static String[] byIdentifier(Class<?> cls) {
        List<String> names = MethodMonitorRegistry.methodNames(cls);
        List<Class<? extends Annotation>> classGroups = MethodMonitorRegistry.groups(cls);
        Map<String, List<Class<? extends Annotation>>> declared = declaredGroups(cls, classGroups);
        String whole = join(classGroups);
        String[] result = new String[names.size()];
        for (int ident = 0; ident < result.length; ident++) {
            String name = names.get(ident);
            List<Class<? extends Annotation>> own = declared.get(name);
            if (own == null) {
                int paren = name.indexOf('(');
                own = paren < 0 ? null : declared.get(name.substring(0, paren));
            }
            result[ident] = own == null || own.isEmpty() ? whole : join(own);
        }
        return result;
    }

    /** The class's groups that each method carries, by tracing name (without parameter types). */
    private static Map<String, List<Class<? extends Annotation>>> declaredGroups(Class<?> cls,
            List<Class<? extends Annotation>> classGroups) {
        Map<String, List<Class<? extends Annotation>>> result = new HashMap<>();
        Method[] methods;
        try {
            methods = cls.getDeclaredMethods();
        } catch (LinkageError e) {
            return result; // a signature names a missing class: report the class's groups
        }
        for (Method method : methods) {
            List<Class<? extends Annotation>> own = new ArrayList<>();
            for (Class<? extends Annotation> group : classGroups) {
                if (method.isAnnotationPresent(group)) {
                    own.add(group);
                }
            }
            TracingName tracingName = method.getAnnotation(TracingName.class);
            result.merge(tracingName == null ? method.getName() : tracingName.value(), own, (a, b) -> a.isEmpty() ? b : a);
        }
        return result;
    }

    private static String join(List<Class<? extends Annotation>> groups) {
        StringJoiner joined = new StringJoiner(",");
        for (Class<? extends Annotation> group : groups) {
            joined.add(group.getSimpleName());
        }
        return joined.toString();
    }
}
