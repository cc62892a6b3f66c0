package org.tracingfacility.it;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The counts in the {@code tf-enhance} summary line ({@code TF: 12 classes scanned, 10 enhanced,
 * …, 3 methods skipped …}); a count the line does not carry is -1.
 */
final class EnhanceSummary {
    private static final Pattern SCANNED = Pattern.compile("(\\d+) classes scanned");
    private static final Pattern ENHANCED = Pattern.compile("(\\d+) enhanced");
    private static final Pattern SKIPPED = Pattern.compile("(\\d+) methods? skipped");

    final String line;
    final long scanned;
    final long enhanced;
    final long skippedMethods;

    private EnhanceSummary(String line) {
        this.line = line;
        this.scanned = count(SCANNED, line);
        this.enhanced = count(ENHANCED, line);
        this.skippedMethods = count(SKIPPED, line);
    }

    /** The summary of a run's output: its last line starting with {@code TF:}. */
    static EnhanceSummary of(String output) {
        String summary = "";
        for (String line : output.split("\n")) {
            if (line.startsWith("TF:")) {
                summary = line;
            }
        }
        return new EnhanceSummary(summary);
    }

    private static long count(Pattern pattern, String line) {
        Matcher m = pattern.matcher(line);
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }
}
