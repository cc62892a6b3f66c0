package org.tracingfacility.runtime.timing;

import java.lang.reflect.Executable;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.tracingfacility.annotation.TracingName;

/**
 * How the timing table (and JFR's {@code MethodTiming}) names a method: its tracing name
 * with its parameter types, {@code checkout(String)}, as {@code jfr view method-timing} shows
 * methods. An overload's tracing name already carries them ({@code join(int[],char)}, given
 * by the enhancer) and is kept as it is.
 */
final class MethodLabels {
    private final Map<String, List<Executable>> byTracingName = new HashMap<>();

    private MethodLabels() {
    }

    /** The labels of the methods and constructors that {@code cls} declares. */
    static MethodLabels of(Class<?> cls) {
        MethodLabels labels = new MethodLabels();
        List<Executable> members = new ArrayList<>();
        try {
            members.addAll(List.of(cls.getDeclaredMethods()));
            members.addAll(List.of(cls.getDeclaredConstructors()));
        } catch (LinkageError e) {
            return labels; // a signature names a missing class: tracing names it is
        }
        for (Executable member : members) {
            if (member instanceof Method && ((Method) member).isBridge()) {
                continue; // javac's copy of the real method, which the enhancer leaves alone
            }
            String name = tracingName(member);
            List<Executable> named = labels.byTracingName.get(name);
            if (named == null) {
                named = new ArrayList<>();
                labels.byTracingName.put(name, named);
            }
            named.add(member);
        }
        return labels;
    }

    /**
     * {@code name(Type,...)} for the one method of that tracing name; the tracing name alone
     * when it already lists parameters or does not tell one method apart.
     */
    String label(String tracingName) {
        if (tracingName.indexOf('(') >= 0) {
            return tracingName;
        }
        List<Executable> members = byTracingName.getOrDefault(tracingName, List.of());
        if (members.size() != 1) {
            return tracingName;
        }
        StringBuilder label = new StringBuilder(tracingName).append('(');
        Class<?>[] parameters = members.get(0).getParameterTypes();
        for (int i = 0; i < parameters.length; i++) {
            label.append(i == 0 ? "" : ",").append(typeName(parameters[i]));
        }
        return label.append(')').toString();
    }

    /** As the enhancer writes a parameter: {@code String}, {@code int[]}, {@code Map$Entry}. */
    private static String typeName(Class<?> type) {
        if (type.isArray()) {
            return typeName(type.getComponentType()) + "[]";
        }
        String name = type.getName();
        return name.substring(name.lastIndexOf('.') + 1);
    }

    private static String tracingName(Executable member) {
        TracingName explicit = member.getAnnotation(TracingName.class);
        if (explicit != null) {
            return explicit.value();
        }
        return member instanceof Method ? member.getName() : "<init>";
    }
}
