package org.tracingfacility.agent;

import java.util.ArrayList;
import java.util.List;
import org.tracingfacility.core.FilterList;
import org.tracingfacility.core.TfSettings;

/**
 * What {@code -javaagent:tf-agent.jar=<options>} asks for. Options are separated by {@code ,}:
 *
 * <ul>
 *   <li>{@code monitor=Group=factory[,Group=factory...]}: as {@code -Dtf.monitor};
 *   <li>{@code filter=spec[,spec...]}: method filters in JEP 520's grammar, as the plugins take
 *       them ({@code [Group=]target[;target...]}: {@code ;} separates the targets of one filter);
 *   <li>{@code verbose} or {@code verbose=0..4}: one line per class enhanced (1), and more.
 * </ul>
 *
 * <p>Since {@code monitor} and {@code filter} take lists, an entry that does not begin with an
 * option's name continues the list of the option before it:
 * {@code filter=com.example.**,org.lib.**,monitor=Filtered=timing}.
 */
final class AgentOptions {
    private static final String MONITOR = "monitor=";
    private static final String FILTER = "filter=";
    private static final String VERBOSE = "verbose";
    private static final int MAX_VERBOSE = 4;

    final List<String> monitors;
    final List<String> filters;
    final int verbose;

    private AgentOptions(List<String> monitors, List<String> filters, int verbose) {
        this.monitors = List.copyOf(monitors);
        this.filters = List.copyOf(filters);
        this.verbose = verbose;
    }

    /**
     * @param text the agent's argument, null or empty for none
     * @throws IllegalArgumentException naming the entry that is not an option and the options known
     */
    static AgentOptions parse(String text) {
        List<String> monitors = new ArrayList<>();
        List<String> filters = new ArrayList<>();
        int verbose = TfSettings.DEFAULT_VERBOSE;
        List<String> current = null;
        for (String raw : text == null ? new String[0] : text.split(",")) {
            String entry = raw.trim();
            if (entry.isEmpty()) {
                continue;
            }
            if (entry.startsWith(MONITOR)) {
                current = monitors;
                entry = entry.substring(MONITOR.length());
            } else if (entry.startsWith(FILTER)) {
                current = filters;
                entry = entry.substring(FILTER.length());
            } else if (entry.equals(VERBOSE)) {
                verbose = 1;
                current = null;
                continue;
            } else if (entry.startsWith(VERBOSE + "=")) {
                verbose = verboseLevel(entry.substring(VERBOSE.length() + 1));
                current = null;
                continue;
            } else if (current == null) {
                throw new IllegalArgumentException("'" + entry + "' is not an option; the options are "
                        + "monitor=Group=factory,..., filter=spec,... and verbose[=0..4], separated by ','");
            }
            if (entry.trim().isEmpty()) {
                throw new IllegalArgumentException("'" + raw.trim() + "' names no value");
            }
            if (current == filters) {
                // Read as the plugins read filters: ';' stays inside the filter.
                filters.addAll(FilterList.split(List.of(entry)));
            } else {
                current.add(entry.trim());
            }
        }
        return new AgentOptions(monitors, filters, verbose);
    }

    private static int verboseLevel(String value) {
        try {
            int level = Integer.parseInt(value.trim());
            if (level >= 0 && level <= MAX_VERBOSE) {
                return level;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("verbose=" + value + ": the level is 0 to " + MAX_VERBOSE);
    }

    /** {@code tf.monitor}'s value for these options, after any the command line set. */
    String monitorProperty(String existing) {
        String ours = String.join(",", monitors);
        if (existing == null || existing.isBlank()) {
            return ours;
        }
        return ours.isEmpty() ? existing : existing + "," + ours;
    }
}
