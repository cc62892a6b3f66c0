package org.tracingfacility.runtime;

import java.lang.reflect.Array;
import java.util.Arrays;
import java.util.StringJoiner;

/** How the printing monitors show argument and result values. */
final class ValueFormat {
    private ValueFormat() {
    }

    /** {@code a, b, c}, each value formatted with {@link #format}. */
    static String arguments(Object[] args) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < args.length; i++) {
            if (i > 0) {
                out.append(", ");
            }
            out.append(format(args[i]));
        }
        return out.toString();
    }

    /**
     * A value as a reader would want it: strings quoted, arrays listed. A {@code toString}
     * that throws must not break the monitored program, so its failure is shown instead.
     */
    static String format(Object value) {
        try {
            if (value instanceof String) {
                return '"' + (String) value + '"';
            }
            if (value instanceof Object[]) {
                return Arrays.deepToString((Object[]) value);
            }
            if (value != null && value.getClass().isArray()) {
                return primitiveArray(value);
            }
            return String.valueOf(value);
        } catch (RuntimeException e) {
            return "<toString failed: " + e + ">";
        }
    }

    private static String primitiveArray(Object array) {
        StringJoiner out = new StringJoiner(", ", "[", "]");
        for (int i = 0, n = Array.getLength(array); i < n; i++) {
            out.add(String.valueOf(Array.get(array, i)));
        }
        return out.toString();
    }
}
