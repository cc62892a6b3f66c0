package org.tracingfacility.runtime;

import java.io.IOException;
import java.io.InputStream;
import java.lang.annotation.Annotation;
import java.net.URL;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import org.tracingfacility.annotation.Filtered;

/**
 * Finds TF annotations by name, as people type them: {@code IO} or {@code com.example.IO}.
 * {@code Filtered} is always TF's built-in group (the one filters select into). Other
 * candidates are the groups the registry knows, the built-in {@link Filtered}, and every
 * group listed in a {@code META-INF/tf/tfannotations.properties} on the class path (written
 * by the enhancer), so a group can be named before any class carrying it has loaded.
 */
final class GroupNames {
    static final String RESOURCE = "META-INF/tf/tfannotations.properties";
    private static final String SIZE_KEY = "org.tracingfacility.tf.annotations.size";
    private static final String ENTRY_KEY_PREFIX = "org.tracingfacility.tf.annotation.";

    private GroupNames() {
    }

    /** The full names of every group that {@link #resolve} could find, sorted. */
    static Set<String> all(ClassLoader loader) {
        Set<String> names = new TreeSet<>(listed(loader));
        names.add(Filtered.class.getName());
        for (Class<? extends Annotation> group : MethodMonitorRegistry.knownGroups()) {
            names.add(group.getName());
        }
        return names;
    }

    /**
     * The group of a simple or full name.
     *
     * @throws IllegalArgumentException if no group or several groups have that name, or the
     *     class is not a TF annotation ({@link TfAnnotationRule})
     */
    static Class<? extends Annotation> resolve(String name, ClassLoader loader) {
        for (Class<? extends Annotation> known : MethodMonitorRegistry.knownGroups()) {
            if (known.getName().equals(name)) {
                return known;
            }
        }
        if (name.equals(Filtered.class.getSimpleName()) || name.equals(Filtered.class.getName())) {
            // TF's own group answers to its simple name first, without reading the class path's
            // lists (the first such read searches every JDK module, milliseconds of an agent's
            // start): a group of the application's own called Filtered is named in full.
            return Filtered.class;
        }
        List<String> matches = new ArrayList<>();
        for (String candidate : all(loader)) {
            if (candidate.equals(name) || simpleName(candidate).equals(name)) {
                matches.add(candidate);
            }
        }
        if (matches.size() > 1) {
            throw new IllegalArgumentException("TF group name '" + name + "' is ambiguous: " + matches
                    + "; use the full name");
        }
        String fullName = matches.isEmpty() ? name : matches.get(0);
        Class<?> cls;
        try {
            cls = Class.forName(fullName, false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            throw new IllegalArgumentException("unknown TF group '" + name + "': not listed in any " + RESOURCE
                    + " on the class path, and no class of that name", e);
        }
        return TfAnnotationRule.require(cls);
    }

    /** The group names listed in the class path's annotation resources. */
    static Set<String> listed(ClassLoader loader) {
        Set<String> names = new LinkedHashSet<>();
        Enumeration<URL> resources;
        try {
            resources = loader.getResources(RESOURCE);
        } catch (IOException e) {
            return names;
        }
        while (resources.hasMoreElements()) {
            URL resource = resources.nextElement();
            Properties properties = new Properties();
            try (InputStream in = resource.openStream()) {
                properties.load(in);
            } catch (IOException | IllegalArgumentException e) {
                System.err.println("TF: cannot read " + resource + ": " + e);
                continue;
            }
            int size = parseSize(properties.getProperty(SIZE_KEY));
            for (int i = 1; i <= size; i++) {
                String entry = properties.getProperty(ENTRY_KEY_PREFIX + i);
                if (entry != null && !entry.isBlank()) {
                    names.add(entry.trim());
                }
            }
        }
        return names;
    }

    /** The simple name of a binary class name: after the last '.' and the last '$'. */
    static String simpleName(String binaryName) {
        int cut = Math.max(binaryName.lastIndexOf('.'), binaryName.lastIndexOf('$'));
        return binaryName.substring(cut + 1);
    }

    private static int parseSize(String value) {
        try {
            return value == null ? 0 : Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
