package org.tracingfacility.runtime.timing;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Timing statistics at one moment, one row per method or interval that ran, slowest mean
 * first. {@link #toString()} is a table in the style of {@code jfr view method-timing}.
 */
public final class TimingReport {
    /** The statistics of one method or interval; durations in nanoseconds. */
    public static final class Row {
        private final String name;
        private final long invocations;
        private final long timed;
        private final long total;
        private final long minimum;
        private final long maximum;
        private final long p50;
        private final long p90;
        private final long p99;

        private Row(String name, long invocations, long timed, long total, long minimum, long maximum,
                long p50, long p90, long p99) {
            this.name = name;
            this.invocations = invocations;
            this.timed = timed;
            this.total = total;
            this.minimum = minimum;
            this.maximum = maximum;
            this.p50 = p50;
            this.p90 = p90;
            this.p99 = p99;
        }

        /** @param row a {@link TimerRow}, durations in the clock's unit */
        static Row of(String name, long[] row) {
            long timed = TimerRow.timed(row);
            long invocations = timed + row[TimerRow.UNTIMED];
            if (timed == 0) {
                return new Row(name, invocations, 0, 0, 0, 0, 0, 0, 0);
            }
            return new Row(name, invocations, timed, TimingClock.toNanos(row[TimerRow.TOTAL]),
                    TimingClock.toNanos(row[TimerRow.MIN]), TimingClock.toNanos(row[TimerRow.MAX]),
                    percentile(row, timed, 0.50), percentile(row, timed, 0.90), percentile(row, timed, 0.99));
        }

        /** A percentile estimate in nanoseconds, within the exact minimum and maximum. */
        private static long percentile(long[] row, long count, double fraction) {
            return TimingClock.toNanos(Histogram.quantile(row, TimerRow.BUCKETS, count, fraction,
                    row[TimerRow.MIN], row[TimerRow.MAX]));
        }

        /**
         * {@code com.example.Cart.checkout(String)} for a method (an overload as the enhancer
         * names it, {@code join(int[],char)}), {@code com.example.IOStream [marshal]} for an interval.
         */
        public String name() {
            return name;
        }

        /** How many calls were measured. */
        public long invocations() {
            return invocations;
        }

        /** How many invocations were measured: all of them unless the factory samples. */
        public long timedInvocations() {
            return timed;
        }

        /** The total time of all invocations; estimated from the mean when sampling. */
        public long totalNanos() {
            return timed == invocations ? total : meanNanos() * invocations;
        }

        /** The mean of the measured durations. */
        public long meanNanos() {
            return timed == 0 ? 0 : total / timed;
        }

        /** The shortest measured duration. */
        public long minimumNanos() {
            return minimum;
        }

        /** The longest measured duration. */
        public long maximumNanos() {
            return maximum;
        }

        /**
         * Median, interpolated within its histogram bucket: within an eighth of the true
         * value, and never outside [minimum, maximum].
         */
        public long p50Nanos() {
            return p50;
        }

        /** The duration 90% of the measured calls took at most (from the histogram). */
        public long p90Nanos() {
            return p90;
        }

        /** The duration 99% of the measured calls took at most (from the histogram). */
        public long p99Nanos() {
            return p99;
        }
    }

    private static final String[] HEADERS = {
        "Timed Method", "Invocations", "Average Time", "Minimum", "P50", "P90", "P99", "Maximum", "Total Time"
    };

    /** By mean time, the slowest first; equal means by name. */
    private static final Comparator<Row> SLOWEST_FIRST = new Comparator<Row>() {
        @Override
        public int compare(Row a, Row b) {
            int byMean = Long.compare(b.meanNanos(), a.meanNanos());
            return byMean != 0 ? byMean : a.name().compareTo(b.name());
        }
    };

    private final List<Row> rows;
    private final int sampleEvery;

    TimingReport(List<Row> rows, int sampleEvery) {
        this.sampleEvery = sampleEvery;
        List<Row> sorted = new ArrayList<>(rows);
        sorted.sort(SLOWEST_FIRST);
        this.rows = List.copyOf(sorted);
    }

    /** The table's rows, in the order it prints them. */
    public List<Row> rows() {
        return rows;
    }

    /** The row of a method or interval by {@linkplain Row#name() name}, or null. */
    public Row row(String name) {
        for (Row row : rows) {
            if (row.name().equals(name)) {
                return row;
            }
        }
        return null;
    }

    /** The table: title, headers, a rule, one line per row, numbers right-aligned; then the clock. */
    @Override
    public String toString() {
        List<String[]> cells = new ArrayList<>();
        cells.add(HEADERS);
        for (Row row : rows) {
            cells.add(new String[] {
                row.name(), Long.toString(row.invocations()), duration(row.meanNanos()),
                duration(row.minimumNanos()), duration(row.p50Nanos()), duration(row.p90Nanos()),
                duration(row.p99Nanos()), duration(row.maximumNanos()), duration(row.totalNanos())
            });
        }
        int[] widths = new int[HEADERS.length];
        for (String[] line : cells) {
            for (int c = 0; c < line.length; c++) {
                widths[c] = Math.max(widths[c], line[c].length());
            }
        }
        int tableWidth = (widths.length - 1);
        for (int width : widths) {
            tableWidth += width;
        }
        StringBuilder out = new StringBuilder("\n");
        String title = "Method Timing (TF)";
        out.append(" ".repeat(Math.max(0, (tableWidth - title.length()) / 2))).append(title).append("\n\n");
        if (sampleEvery > 1) {
            out.append("Durations measured on 1 invocation in ").append(sampleEvery)
                    .append(" per thread; total times estimated.\n\n");
        }
        for (int i = 0; i < cells.size(); i++) {
            appendLine(out, cells.get(i), widths);
            if (i == 0) {
                String[] rule = new String[widths.length];
                for (int c = 0; c < widths.length; c++) {
                    rule[c] = "-".repeat(widths[c]);
                }
                appendLine(out, rule, widths);
            }
        }
        // Says whether the faster clock is in use, so a user can tell whether --add-exports took.
        out.append("\nClock: ").append(TimingClock.DESCRIPTION).append('\n');
        return out.toString();
    }

    private static void appendLine(StringBuilder out, String[] line, int[] widths) {
        StringBuilder text = new StringBuilder();
        for (int c = 0; c < line.length; c++) {
            if (c > 0) {
                text.append(' ');
            }
            String pad = " ".repeat(widths[c] - line[c].length());
            // The name column reads left to right; numbers line up on the right.
            text.append(c == 0 ? line[c] + pad : pad + line[c]);
        }
        out.append(text.toString().stripTrailing()).append('\n');
    }

    /** A duration with three significant digits in the largest unit that keeps it at least 1. */
    static String duration(long nanos) {
        if (nanos < 1_000) {
            return nanos + " ns";
        }
        // Switch units where rounding to three digits would reach 1000.
        if (nanos < 999_500) {
            return threeDigits(nanos, 1_000) + " us";
        }
        if (nanos < 999_500_000) {
            return threeDigits(nanos, 1_000_000) + " ms";
        }
        return threeDigits(nanos, 1_000_000_000) + " s";
    }

    /**
     * {@code nanos / unit} (at least 1) to three significant digits, half up, trailing zeros
     * kept: what {@code %.3g} prints for these values, in long arithmetic. Neither
     * {@link java.util.Formatter} (whose first use loads the locale providers) nor
     * {@link java.math.BigDecimal} (whose class initialization alone takes tens of
     * milliseconds): the table is written as a short-lived JVM exits.
     */
    static String threeDigits(long nanos, long unit) {
        long whole = nanos / unit;
        long rest = nanos % unit;
        for (int decimals = 2; decimals >= 0; decimals--) {
            long scale = decimals == 2 ? 100 : decimals == 1 ? 10 : 1;
            long scaled = whole * scale + (rest * scale + unit / 2) / unit;
            if (scaled < 1_000) {
                String digits = Long.toString(scaled);
                return decimals == 0 ? digits
                        : digits.substring(0, digits.length() - decimals) + "." + digits.substring(digits.length() - decimals);
            }
        }
        // A thousand units or more (seconds only): round the whole part to three digits.
        long step = 1;
        for (long w = whole; w >= 1_000; w /= 10) {
            step *= 10;
        }
        long roundedSteps = whole / step + ((whole % step) * unit + rest >= (step * unit + 1) / 2 ? 1 : 0);
        return Long.toString(roundedSteps * step);
    }
}
