package org.tracingfacility.core;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One enhancement run over one directory of classes: the Java mirror of the core's
 * {@code EnhanceRequest} ({@code rust-core/src/request.rs}), with the same defaults.
 *
 * <pre>{@code
 * EnhanceRequest request = EnhanceRequest.builder(classesDir)
 *         .classpath(compileClasspath)
 *         .verbose(1)
 *         .build();
 * }</pre>
 */
public final class EnhanceRequest {
    /** The wire format this bridge speaks; the core refuses a version it does not know. */
    public static final int FORMAT_VERSION = 1;

    private final String classDir;
    private final String resourceFile;
    private final List<String> classpath;
    private final List<String> runtimeClasspath;
    private final boolean tracegen;
    private final boolean dryRun;
    private final boolean newOut;
    private final int verbose;
    private final boolean debug;
    private final List<String> filters;
    private final int threads;
    private final String cacheDir;
    private final boolean failOnSkip;
    private final boolean warnUnusedFilters;
    private final boolean failOnError;
    private final String className;
    private final byte[] classBytes;
    private final List<String> supertypes;
    private final List<String> groups;
    /** The guarded shape's first site, or -1 for the standard shape. */
    private final int firstSite;

    private EnhanceRequest(Builder builder) {
        this.classDir = builder.classDir;
        this.resourceFile = builder.resourceFile;
        this.classpath = List.copyOf(builder.classpath);
        this.runtimeClasspath = builder.runtimeClasspath == null ? null : List.copyOf(builder.runtimeClasspath);
        this.tracegen = builder.tracegen;
        this.dryRun = builder.dryRun;
        this.newOut = builder.newOut;
        this.verbose = builder.verbose;
        this.debug = builder.debug;
        this.filters = List.copyOf(builder.filters);
        this.threads = builder.threads;
        this.cacheDir = builder.cacheDir;
        this.failOnSkip = builder.failOnSkip;
        this.warnUnusedFilters = builder.warnUnusedFilters;
        this.failOnError = builder.failOnError;
        this.className = builder.className;
        this.classBytes = builder.classBytes;
        this.supertypes = List.copyOf(builder.supertypes);
        this.groups = List.copyOf(builder.groups);
        this.firstSite = builder.firstSite;
    }

    /** A builder for a run over {@code classDir}, with every other setting at its default. */
    public static Builder builder(String classDir) {
        return new Builder(classDir);
    }

    /**
     * A builder for one class in memory, as a JVM is about to define it (the agent): the core
     * enhances these bytes alone, writes nothing, and returns the new bytes in
     * {@link EnhanceReport#classBytes()}; directory settings are ignored.
     *
     * @param className the binary name the JVM gives ({@code com.example.Foo}), for messages
     */
    public static Builder forClass(String className, byte[] classBytes) {
        Builder builder = new Builder("");
        builder.className = Objects.requireNonNull(className, "className");
        builder.classBytes = Objects.requireNonNull(classBytes, "classBytes");
        return builder;
    }

    /** The binary name of the class in memory, if this request is for one. */
    public Optional<String> className() {
        return Optional.ofNullable(className);
    }

    /** The bytes of the class in memory (not copied), if this request is for one. */
    public Optional<byte[]> classBytes() {
        return Optional.ofNullable(classBytes);
    }

    /**
     * Every supertype of the class in memory the caller knows (binary names: superclasses,
     * interfaces and their superinterfaces), for filters' {@code Type+} targets.
     */
    public List<String> supertypes() {
        return supertypes;
    }

    /** TF annotation types the caller knows of beside those a scan finds (binary names). */
    public List<String> groups() {
        return groups;
    }

    /**
     * Whether the class may get only new method bodies (the core's {@code shape = guarded}: what
     * the agent writes as a class loads and into a running JVM) rather than new members.
     */
    public boolean guarded() {
        return firstSite >= 0;
    }

    /** The guarded shape's first site (the runtime's {@code GuardedSites}), or -1. */
    public int firstSite() {
        return firstSite;
    }

    /** The class directory to scan and enhance in place. */
    public String classDir() {
        return classDir;
    }

    /** Where the TF annotation list goes; empty means {@code <classDir>/META-INF/tf/tfannotations.properties}. */
    public Optional<String> resourceFile() {
        return Optional.ofNullable(resourceFile);
    }

    /** Directories and jars searched for TF annotation types defined elsewhere. */
    public List<String> classpath() {
        return classpath;
    }

    /** The class path the enhanced classes will run with, if the caller knows it. */
    public Optional<List<String>> runtimeClasspath() {
        return Optional.ofNullable(runtimeClasspath);
    }

    /** Whether stage 2 (tracing code) runs after stage 1 (schema). Default true. */
    public boolean tracegen() {
        return tracegen;
    }

    /** Report what would be done, write nothing. */
    public boolean dryRun() {
        return dryRun;
    }

    /** Write enhanced classes to {@code <file>.new} beside the original. */
    public boolean newOut() {
        return newOut;
    }

    /** 0 (summary only) to 4 (everything). */
    public int verbose() {
        return verbose;
    }

    /** Whether the core's debug lines are among the messages. */
    public boolean debug() {
        return debug;
    }

    /** Method filters in JEP 520's grammar, each optionally prefixed by {@code Group=}. */
    public List<String> filters() {
        return filters;
    }

    /** Worker threads; 0 means one per core. */
    public int threads() {
        return threads;
    }

    /** Directory of the incremental cache; empty means no cache. */
    public Optional<String> cacheDir() {
        return Optional.ofNullable(cacheDir);
    }

    /**
     * Whether a method selected only by a filter that TF cannot enhance fails the run.
     * Default false: it is left as it was, with a warning, and counted as skipped.
     */
    public boolean failOnSkip() {
        return failOnSkip;
    }

    /** Whether a filter that selected no method is warned about. */
    public boolean warnUnusedFilters() {
        return warnUnusedFilters;
    }

    /**
     * Whether a class with errors keeps every class from being written. Default true;
     * false writes every class without errors and leaves the others as they were.
     */
    public boolean failOnError() {
        return failOnError;
    }

    /** Builds an {@link EnhanceRequest}; every setting starts at the core's default. */
    public static final class Builder {
        private final String classDir;
        private String resourceFile;
        private final List<String> classpath = new ArrayList<>();
        private List<String> runtimeClasspath;
        private boolean tracegen = TfSettings.DEFAULT_TRACEGEN;
        private boolean dryRun = TfSettings.DEFAULT_DRY_RUN;
        private boolean newOut;
        private int verbose = TfSettings.DEFAULT_VERBOSE;
        private boolean debug;
        private final List<String> filters = new ArrayList<>();
        private int threads = TfSettings.DEFAULT_THREADS;
        private String cacheDir;
        private boolean failOnSkip = TfSettings.DEFAULT_FAIL_ON_SKIP;
        private boolean warnUnusedFilters = true;
        private boolean failOnError = TfSettings.DEFAULT_FAIL_ON_ERROR;
        private String className;
        private byte[] classBytes;
        private final List<String> supertypes = new ArrayList<>();
        private final List<String> groups = new ArrayList<>();
        private int firstSite = -1;

        private Builder(String classDir) {
            this.classDir = Objects.requireNonNull(classDir, "classDir");
        }

        /** Where the TF annotation list is written; null for {@code <classDir>/META-INF/tf/tfannotations.properties}. */
        public Builder resourceFile(String resourceFile) {
            this.resourceFile = resourceFile;
            return this;
        }

        /** Appends class path entries (directories or jars). */
        public Builder classpath(Collection<String> entries) {
            for (String entry : entries) {
                classpath.add(Objects.requireNonNull(entry, "classpath entry"));
            }
            return this;
        }

        /**
         * The class path the enhanced classes will run with: when given, a run that leaves any
         * class enhanced fails, writing nothing, unless tf-runtime is on it (rule
         * {@code runtime-missing}), rather than the application failing at start.
         */
        public Builder runtimeClasspath(Collection<String> entries) {
            runtimeClasspath = new ArrayList<>();
            for (String entry : entries) {
                runtimeClasspath.add(Objects.requireNonNull(entry, "runtime classpath entry"));
            }
            return this;
        }

        /** Run stage 2 (the tracing code) after stage 1. */
        public Builder tracegen(boolean tracegen) {
            this.tracegen = tracegen;
            return this;
        }

        /** Report what would be done; write nothing. */
        public Builder dryRun(boolean dryRun) {
            this.dryRun = dryRun;
            return this;
        }

        /** Write each enhanced class beside its original as {@code <file>.new}. */
        public Builder newOut(boolean newOut) {
            this.newOut = newOut;
            return this;
        }

        /** @param verbose 0 to 255 on the wire; levels above 4 add nothing */
        public Builder verbose(int verbose) {
            if (verbose < 0 || verbose > 255) {
                throw new IllegalArgumentException("verbose must be between 0 and 255 (levels above 4 add nothing), got " + verbose);
            }
            this.verbose = verbose;
            return this;
        }

        /** Put the core's debug lines among the messages. */
        public Builder debug(boolean debug) {
            this.debug = debug;
            return this;
        }

        /** Appends method filters. */
        public Builder filters(Collection<String> filters) {
            for (String filter : filters) {
                this.filters.add(Objects.requireNonNull(filter, "filter"));
            }
            return this;
        }

        /** @param threads worker threads, 0 for one per core */
        public Builder threads(int threads) {
            if (threads < 0) {
                throw new IllegalArgumentException("threads must be 0 (one per core) or more, got " + threads);
            }
            this.threads = threads;
            return this;
        }

        /** The incremental cache directory; null for none. */
        public Builder cacheDir(String cacheDir) {
            this.cacheDir = cacheDir;
            return this;
        }

        /** Fail when a method only a filter selected cannot be enhanced. */
        public Builder failOnSkip(boolean failOnSkip) {
            this.failOnSkip = failOnSkip;
            return this;
        }

        /** Write nothing when a class has errors; false writes every class without one. */
        public Builder failOnError(boolean failOnError) {
            this.failOnError = failOnError;
            return this;
        }

        /**
         * Warn about each filter that selected no method of the directory (the default); off for
         * directories filters are seldom meant for, such as test classes.
         */
        public Builder warnUnusedFilters(boolean warnUnusedFilters) {
            this.warnUnusedFilters = warnUnusedFilters;
            return this;
        }

        /**
         * Appends supertypes (binary names) of the class in memory, those its class file does not
         * name among them: what a filter's {@code Type+} target matches. The agent sends every
         * one it knows; without them, only the class file's direct supertypes are known.
         */
        public Builder supertypes(Collection<String> names) {
            // A loop, not forEach with a lambda: the agent sends this with every class it
            // traces, and a first lambda's linking is milliseconds of its start-up.
            for (String name : names) {
                supertypes.add(Objects.requireNonNull(name, "supertype"));
            }
            return this;
        }

        /**
         * Appends TF annotation types (binary names) known to the caller, for example those a
         * class loader's {@code META-INF/tf/tfannotations.properties} lists.
         */
        public Builder groups(Collection<String> names) {
            for (String name : names) {
                groups.add(Objects.requireNonNull(name, "group"));
            }
            return this;
        }

        /**
         * Method bodies only (what a running JVM accepts when it retransforms a loaded class, and
         * what the agent writes as classes load), the monitor read from the runtime's guarded
         * sites from {@code firstSite} on, which the caller reserved.
         */
        public Builder guarded(int firstSite) {
            if (firstSite < 0) {
                throw new IllegalArgumentException("a guarded site is not negative: " + firstSite);
            }
            this.firstSite = firstSite;
            return this;
        }

        /** The request, its lists copied. */
        public EnhanceRequest build() {
            return new EnhanceRequest(this);
        }
    }
}
