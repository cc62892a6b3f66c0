package org.tracingfacility.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What one enhancement run did: the Java mirror of the core's {@code EnhanceReport}.
 * {@link #ok()} false means {@link #errors()} says what failed; nothing was written unless
 * the request had {@code failOnError(false)}, which writes every class without errors.
 */
public final class EnhanceReport {
    private final int formatVersion;
    private final boolean ok;
    private final List<String> annotations;
    private final String resourceFile;
    private final long classesScanned;
    private final long classesEnhanced;
    private final long classesUnchanged;
    private final long classesFailed;
    private final long classesUpToDate;
    private final long methodsSkipped;
    private final List<Diagnostic> errors;
    private final List<String> messages;
    private final List<String> warnings;
    private final List<String> written;
    private final String summary;
    private final byte[] classBytes;
    private final Registration registration;

    private EnhanceReport(Builder builder) {
        this.formatVersion = builder.formatVersion;
        this.ok = builder.ok;
        this.annotations = List.copyOf(builder.annotations);
        this.resourceFile = builder.resourceFile;
        this.classesScanned = builder.classesScanned;
        this.classesEnhanced = builder.classesEnhanced;
        this.classesUnchanged = builder.classesUnchanged;
        this.classesFailed = builder.classesFailed;
        this.classesUpToDate = builder.classesUpToDate;
        this.methodsSkipped = builder.methodsSkipped;
        this.errors = List.copyOf(builder.errors);
        this.messages = List.copyOf(builder.messages);
        this.warnings = List.copyOf(builder.warnings);
        this.written = List.copyOf(builder.written);
        this.summary = builder.summary;
        this.classBytes = builder.classBytes;
        this.registration = builder.registration;
    }

    /** The wire format version of the core that answered. */
    public int formatVersion() {
        return formatVersion;
    }

    /** True when the run had no errors and its output was written. */
    public boolean ok() {
        return ok;
    }

    /** The TF annotation types found, binary names, sorted. */
    public List<String> annotations() {
        return annotations;
    }

    /** The annotation list file written, if any. */
    public Optional<String> resourceFile() {
        return Optional.ofNullable(resourceFile);
    }

    /** Class files read. */
    public long classesScanned() {
        return classesScanned;
    }

    /** Classes enhanced (written, unless a dry run). */
    public long classesEnhanced() {
        return classesEnhanced;
    }

    /** Classes TF had nothing to do in. */
    public long classesUnchanged() {
        return classesUnchanged;
    }

    /** Classes left as they were because of an error. */
    public long classesFailed() {
        return classesFailed;
    }

    /** Of the unchanged classes, those the incremental cache showed needed no work. */
    public long classesUpToDate() {
        return classesUpToDate;
    }

    /** Methods selected by a filter that TF left as they were, each named by a warning. */
    public long methodsSkipped() {
        return methodsSkipped;
    }

    /** Lines for the build log's warning level (for example: a damaged cache was rebuilt). */
    public List<String> warnings() {
        return warnings;
    }

    /** Every file the run wrote (class files and the annotation list), for an IDE to refresh. */
    public List<String> written() {
        return written;
    }

    /** Every offence found; empty when {@link #ok()}. */
    public List<Diagnostic> errors() {
        return errors;
    }

    /** Progress lines for the build log, at the requested verbosity. */
    public List<String> messages() {
        return messages;
    }

    /** The one line a build log shows by default. */
    public String summary() {
        return summary;
    }

    /**
     * For a request of one class in memory: its enhanced bytes (not copied), or empty when the
     * class stays as it was (nothing for TF in it, traced already, or {@link #errors()}).
     */
    public Optional<byte[]> classBytes() {
        return Optional.ofNullable(classBytes);
    }

    /**
     * For a class written in the guarded shape: what the agent declares at the request's first
     * site before the JVM defines it.
     */
    public Optional<Registration> registration() {
        return Optional.ofNullable(registration);
    }

    /** A guarded class's TF groups (one site each, from the first on) and tracing names. */
    public static final class Registration {
        private final List<String> groups;
        private final List<String> tracingNames;

        Registration(List<String> groups, List<String> tracingNames) {
            this.groups = List.copyOf(groups);
            this.tracingNames = List.copyOf(tracingNames);
        }

        /** Binary names; the {@code i}-th at the first site plus {@code i}. */
        public List<String> groups() {
            return groups;
        }

        /** Sorted: a name's index is its identifier. */
        public List<String> tracingNames() {
            return tracingNames;
        }
    }

    @Override
    public String toString() {
        return summary;
    }

    /** Filled in field by field by {@link MessagePackCodec}; absent fields keep these defaults. */
    static final class Builder {
        int formatVersion;
        boolean ok;
        final List<String> annotations = new ArrayList<>();
        String resourceFile;
        long classesScanned;
        long classesEnhanced;
        long classesUnchanged;
        long classesFailed;
        long classesUpToDate;
        long methodsSkipped;
        final List<Diagnostic> errors = new ArrayList<>();
        final List<String> messages = new ArrayList<>();
        final List<String> warnings = new ArrayList<>();
        final List<String> written = new ArrayList<>();
        String summary = "";
        byte[] classBytes;
        Registration registration;

        EnhanceReport build() {
            return new EnhanceReport(this);
        }
    }
}
