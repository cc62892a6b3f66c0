package org.tracingfacility.it;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;

/**
 * Reads {@code META-INF/tf/tfannotations.properties} as the runtime does, with
 * {@link Properties}, and checks the numbered form the core writes: a size key and entries
 * numbered 1 to size, nothing else.
 */
final class TfAnnotationList {
    static final String RESOURCE = "META-INF/tf/tfannotations.properties";
    private static final String SIZE_KEY = "org.tracingfacility.tf.annotations.size";
    private static final String ENTRY_KEY_PREFIX = "org.tracingfacility.tf.annotation.";

    private TfAnnotationList() {}

    /**
     * The annotation names in entry order.
     *
     * @throws IllegalArgumentException if the file is not in the numbered form
     */
    static List<String> parse(byte[] file) throws IOException {
        Properties properties = new Properties();
        properties.load(new ByteArrayInputStream(file));
        String size = properties.getProperty(SIZE_KEY);
        if (size == null) {
            throw new IllegalArgumentException("no " + SIZE_KEY + " in " + properties);
        }
        List<String> names = new ArrayList<>();
        Set<String> expectedKeys = new HashSet<>(Set.of(SIZE_KEY));
        for (int i = 1; i <= Integer.parseInt(size); i++) {
            String key = ENTRY_KEY_PREFIX + i;
            String name = properties.getProperty(key);
            if (name == null) {
                throw new IllegalArgumentException("no " + key + " in " + properties);
            }
            names.add(name);
            expectedKeys.add(key);
        }
        if (!properties.stringPropertyNames().equals(expectedKeys)) {
            throw new IllegalArgumentException("unexpected keys in " + properties);
        }
        return names;
    }
}
