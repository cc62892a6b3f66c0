package org.tracingfacility.maven;

import java.util.ArrayList;
import java.util.List;

/**
 * Normalizes the {@code filters} parameter. In a POM each filter is its own element; on the
 * command line Maven splits a list property at commas only, while JFR users write several
 * filters separated by semicolons, so both separators are accepted.
 */
final class FilterList {
    private FilterList() {}

    /** The filters, split at {@code ;} and {@code ,}, trimmed, empty ones dropped; null gives none. */
    static List<String> split(List<String> configured) {
        List<String> filters = new ArrayList<>();
        if (configured == null) {
            return filters;
        }
        for (String entry : configured) {
            if (entry == null) {
                continue;
            }
            for (String filter : entry.split("[;,]")) {
                if (!filter.isBlank()) {
                    filters.add(filter.trim());
                }
            }
        }
        return filters;
    }
}
