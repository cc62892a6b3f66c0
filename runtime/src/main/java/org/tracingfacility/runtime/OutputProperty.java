package org.tracingfacility.runtime;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Where a report goes: the file that a system property names (created or emptied when first
 * written, like {@code -XX:StartFlightRecording:filename=}), else standard error. A file that
 * cannot be written is said so on standard error, which then receives the report: the
 * numbers are not lost to a typo.
 */
final class OutputProperty {
    private final String property;

    OutputProperty(String property) {
        this.property = property;
    }

    /** The property's value, or null when it is not set. */
    String file() {
        String file = System.getProperty(property);
        return file == null || file.isBlank() ? null : file.trim();
    }

    /** Opens the destination; the caller closes it unless it is {@link System#err}. */
    PrintStream open() {
        String file = file();
        if (file == null) {
            return System.err;
        }
        try {
            return new PrintStream(new FileOutputStream(file), true, StandardCharsets.UTF_8.name());
        } catch (IOException | SecurityException e) {
            System.err.println("TF: -D" + property + ": cannot write " + file + " (" + e + "); writing to standard error");
            return System.err;
        }
    }
}
