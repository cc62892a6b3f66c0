package org.tracingfacility.gradle;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The TF annotation list ({@code META-INF/tf/tfannotations.properties}) in the form the native
 * core writes it ({@code rust-core/src/metadata.rs}): a comment line, the size, then the names
 * numbered from 1, sorted by code point, without a date, so the same names always give the
 * same bytes. The Gradle plugin reads the list each compile task's core run wrote and writes
 * their union as the source set's one list.
 */
final class AnnotationListFile {
    private static final String HEADER = "# TF (Tracing Facility) annotations, written by tf-enhance\n";
    private static final String SIZE_KEY = "org.tracingfacility.tf.annotations.size";
    private static final String ENTRY_KEY_PREFIX = "org.tracingfacility.tf.annotation.";

    /** The core's order: Rust sorts names as UTF-8 bytes, which is code point order. */
    private static final Comparator<String> CODE_POINT_ORDER = (a, b) -> Arrays.compare(
            a.codePoints().toArray(), b.codePoints().toArray());

    private AnnotationListFile() {}

    /** A sorted set in the order the list is written in. */
    static SortedSet<String> emptyNames() {
        return new TreeSet<>(CODE_POINT_ORDER);
    }

    /**
     * The names a list holds.
     *
     * @throws IOException if the file cannot be read or is not in the numbered form
     */
    static List<String> read(Path file) throws IOException {
        Properties properties = new Properties();
        properties.load(new ByteArrayInputStream(Files.readAllBytes(file)));
        String size = properties.getProperty(SIZE_KEY);
        if (size == null || !size.matches("\\d{1,9}")) {
            throw new IOException(file + " is not a TF annotation list: no number at " + SIZE_KEY);
        }
        String[] names = new String[Integer.parseInt(size)];
        for (int i = 1; i <= names.length; i++) {
            names[i - 1] = properties.getProperty(ENTRY_KEY_PREFIX + i);
            if (names[i - 1] == null) {
                throw new IOException(file + " is not a TF annotation list: it has no " + ENTRY_KEY_PREFIX + i);
            }
        }
        return Arrays.asList(names);
    }

    /** The bytes of the list of {@code names}: sorted, duplicates dropped, as the core writes them. */
    static byte[] render(Collection<String> names) {
        SortedSet<String> sorted = emptyNames();
        sorted.addAll(names);
        StringBuilder text = new StringBuilder(HEADER);
        text.append(SIZE_KEY).append('=').append(sorted.size()).append('\n');
        int number = 1;
        for (String name : sorted) {
            text.append(ENTRY_KEY_PREFIX).append(number++).append('=');
            escape(name, text);
            text.append('\n');
        }
        // Only printable ASCII is left after escaping.
        return text.toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    /** {@code java.util.Properties} escaping as the core does it: {@code \\uXXXX} beyond ASCII. */
    private static void escape(String value, StringBuilder out) {
        for (char c : value.toCharArray()) {
            if (c == '\\') {
                out.append("\\\\");
            } else if (c >= ' ' && c <= '~') {
                out.append(c);
            } else {
                out.append(String.format("\\u%04X", (int) c));
            }
        }
    }
}
