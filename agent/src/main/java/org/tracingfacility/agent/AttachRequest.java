package org.tracingfacility.agent;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What {@code java -jar tf-agent.jar <pid> <command> [options]} asks of the running JVM: a
 * command and its options, parsed and checked the same way on both sides of the attach (the
 * client refuses a malformed request before attaching; the agent checks again what it reads).
 *
 * <p>Options: {@code filter=<filter>} (JEP 520's grammar with TF's package wildcards and an
 * optional {@code Group=} prefix; repeatable), {@code monitor=Group=factory[,Group=factory…]}
 * (as {@code -Dtf.monitor}; repeatable), {@code verbose}.
 */
final class AttachRequest {
    /** What the agent does in the running JVM. */
    enum Command {
        /** Traces the loaded classes the options select (replacing what an earlier start traced). */
        START,
        /** Takes the tracing out again: every class's code as it was before start. */
        STOP,
        /** What is traced, what was refused, which monitors are registered. */
        STATUS,
        /** What the monitors hold (the timing table). */
        REPORT
    }

    final Command command;
    final List<String> filters;
    final List<String> monitors;
    final boolean verbose;

    private AttachRequest(Command command, List<String> filters, List<String> monitors, boolean verbose) {
        this.command = command;
        this.filters = List.copyOf(filters);
        this.monitors = List.copyOf(monitors);
        this.verbose = verbose;
    }

    /**
     * Parses a command and its options, one per element.
     *
     * @throws IllegalArgumentException with the sentence a user reads
     */
    static AttachRequest parse(List<String> words) {
        if (words.isEmpty() || words.get(0).isBlank()) {
            throw new IllegalArgumentException("no command: give one of start, stop, status, report");
        }
        Command command;
        try {
            command = Command.valueOf(words.get(0).trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown command '" + words.get(0).trim()
                    + "': give one of start, stop, status, report");
        }
        List<String> filters = new ArrayList<>();
        List<String> monitors = new ArrayList<>();
        boolean verbose = false;
        for (String word : words.subList(1, words.size())) {
            String option = word.trim();
            if (option.isEmpty()) {
                continue;
            }
            if (option.equals("verbose")) {
                verbose = true;
            } else if (option.startsWith("filter=") && option.length() > "filter=".length()) {
                filters.add(option.substring("filter=".length()));
            } else if (option.startsWith("monitor=") && option.length() > "monitor=".length()) {
                monitors.add(option.substring("monitor=".length()));
            } else {
                throw new IllegalArgumentException("unknown option '" + option
                        + "': options are filter=<filter>, monitor=Group=factory[,Group=factory...], verbose");
            }
        }
        if (command != Command.START && (!filters.isEmpty() || !monitors.isEmpty())) {
            throw new IllegalArgumentException(command.name().toLowerCase(Locale.ROOT)
                    + " takes no filter= or monitor=: they belong to start");
        }
        if (command == Command.START && filters.isEmpty() && monitors.isEmpty()) {
            throw new IllegalArgumentException("start needs filter=<filter> (which methods) or "
                    + "monitor=Group=factory (the classes of a TF annotation), or both");
        }
        return new AttachRequest(command, filters, monitors, verbose);
    }

    /** The request as the lines the client writes and the agent reads: the command, then each option. */
    List<String> lines() {
        List<String> lines = new ArrayList<>();
        lines.add(command.name().toLowerCase(Locale.ROOT));
        filters.forEach(f -> lines.add("filter=" + f));
        monitors.forEach(m -> lines.add("monitor=" + m));
        if (verbose) {
            lines.add("verbose");
        }
        return lines;
    }
}
