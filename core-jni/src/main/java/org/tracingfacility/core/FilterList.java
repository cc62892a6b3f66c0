package org.tracingfacility.core;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The one reading of configured method filters, shared by every Java entry point (the Maven
 * parameter and its {@code tf.filters} property, Gradle's {@code filters} list, the agent's
 * {@code filter=} option), so that one text means one thing everywhere.
 *
 * <p>The grammar is JEP 520's, as the core parses it: {@code [Group=]target[;target...]}, where
 * {@code ;} separates the targets of <em>one</em> filter ({@code IO=a.B::x;c.D::y} puts both
 * methods in {@code IO}). Filters are separate elements of a list, or separated by {@code ,}
 * (which no target contains, and which Maven's command line uses between list elements).
 */
public final class FilterList {
    private FilterList() {}

    /**
     * The filters in {@code configured}: each element split at {@code ,}, trimmed; blank ones
     * and null elements dropped; a null collection gives none. {@code ;} stays inside its filter.
     */
    public static List<String> split(Collection<String> configured) {
        List<String> filters = new ArrayList<>();
        if (configured == null) {
            return filters;
        }
        for (String element : configured) {
            if (element == null) {
                continue;
            }
            for (String filter : element.split(",")) {
                if (!filter.isBlank()) {
                    filters.add(filter.trim());
                }
            }
        }
        return filters;
    }
}
