package org.tracingfacility.agent;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeSet;
import java.util.WeakHashMap;

/**
 * The TF groups (annotation types) a class loader can see, as the builds that enhanced its jars
 * listed them in {@code META-INF/tf/tfannotations.properties}: the core needs them to know a
 * class's TF annotations, and the selector to spot classes carrying one. Read once per loader.
 */
final class LoaderGroups {
    static final String RESOURCE = "META-INF/tf/tfannotations.properties";
    private static final String SIZE_KEY = "org.tracingfacility.tf.annotations.size";
    private static final String ENTRY_KEY_PREFIX = "org.tracingfacility.tf.annotation.";
    private static final LoaderGroups NONE = new LoaderGroups(List.of());

    private static final Map<ClassLoader, LoaderGroups> BY_LOADER = Collections.synchronizedMap(new WeakHashMap<>());

    /** Binary names, sorted. */
    final List<String> names;
    /** {@code Lcom/example/IO;} for each name. */
    final List<byte[]> descriptors;

    private LoaderGroups(List<String> names) {
        this.names = List.copyOf(names);
        List<byte[]> descriptors = new ArrayList<>();
        for (String name : names) {
            descriptors.add(("L" + name.replace('.', '/') + ";").getBytes(StandardCharsets.UTF_8));
        }
        this.descriptors = List.copyOf(descriptors);
    }

    /** The groups {@code loader} sees; none for the boot loader (the JDK declares none). */
    static LoaderGroups of(ClassLoader loader) {
        if (loader == null) {
            return NONE;
        }
        synchronized (BY_LOADER) {
            LoaderGroups groups = BY_LOADER.get(loader);
            if (groups == null) {
                groups = read(loader);
                BY_LOADER.put(loader, groups);
            }
            return groups;
        }
    }

    private static LoaderGroups read(ClassLoader loader) {
        TreeSet<String> names = new TreeSet<>();
        try {
            Enumeration<URL> lists = loader.getResources(RESOURCE);
            while (lists.hasMoreElements()) {
                URL list = lists.nextElement();
                try {
                    names.addAll(parse(list));
                } catch (IOException | IllegalArgumentException e) {
                    AgentLog.line("could not read " + list + ", its TF groups are not known: " + e);
                }
            }
        } catch (IOException e) {
            AgentLog.line("could not list " + RESOURCE + " of class loader " + loader + ": " + e);
        }
        return names.isEmpty() ? NONE : new LoaderGroups(new ArrayList<>(names));
    }

    private static List<String> parse(URL list) throws IOException {
        Properties properties = new Properties();
        try (InputStream in = list.openStream()) {
            properties.load(in);
        }
        int size = Integer.parseInt(properties.getProperty(SIZE_KEY, "0").trim());
        List<String> names = new ArrayList<>();
        for (int i = 1; i <= size; i++) {
            String name = properties.getProperty(ENTRY_KEY_PREFIX + i);
            if (name != null && !name.isBlank()) {
                names.add(name.trim());
            }
        }
        return names;
    }
}
