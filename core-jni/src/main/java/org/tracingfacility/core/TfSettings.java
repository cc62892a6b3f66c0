package org.tracingfacility.core;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The settings both plugins offer (Maven parameters, Gradle's {@code tf { }} block), declared
 * once with their defaults; each plugin only reads its own configuration into one of these.
 *
 * <p>{@code verbose} levels: 0 the summary line alone; 1 one line per class enhanced (or given
 * back its original); 2 also one per method enhanced, with its role and group; 3 also what
 * enhancing changed in each class (its size, the holder fields) and the TF annotations found;
 * 4 everything, the core's debug lines included.
 */
public final class TfSettings {
    public static final boolean DEFAULT_SKIP = false;
    public static final boolean DEFAULT_TRACEGEN = true;
    public static final int DEFAULT_VERBOSE = 0;
    public static final boolean DEFAULT_FAIL_ON_ERROR = true;
    public static final boolean DEFAULT_FAIL_ON_SKIP = false;
    public static final boolean DEFAULT_DRY_RUN = false;
    public static final int DEFAULT_THREADS = 0;
    public static final boolean DEFAULT_USE_CACHE = true;

    private boolean skip = DEFAULT_SKIP;
    private boolean tracegen = DEFAULT_TRACEGEN;
    private int verbose = DEFAULT_VERBOSE;
    private boolean failOnError = DEFAULT_FAIL_ON_ERROR;
    private boolean failOnSkip = DEFAULT_FAIL_ON_SKIP;
    private final List<String> filters = new ArrayList<>();
    private boolean dryRun = DEFAULT_DRY_RUN;
    private int threads = DEFAULT_THREADS;
    private boolean useCache = DEFAULT_USE_CACHE;

    /** Leave the classes as compiled. */
    public TfSettings skip(boolean skip) {
        this.skip = skip;
        return this;
    }

    /** Add the tracing code (stage 2) after the schema changes (stage 1). */
    public TfSettings tracegen(boolean tracegen) {
        this.tracegen = tracegen;
        return this;
    }

    /** 0 to 4, see the class comment. */
    public TfSettings verbose(int verbose) {
        this.verbose = verbose;
        return this;
    }

    /** Fail the build on errors; when false every class without one is still enhanced. */
    public TfSettings failOnError(boolean failOnError) {
        this.failOnError = failOnError;
        return this;
    }

    /** Fail the build when a method only a filter selected cannot be enhanced. */
    public TfSettings failOnSkip(boolean failOnSkip) {
        this.failOnSkip = failOnSkip;
        return this;
    }

    /**
     * Appends method filters (JEP 520 grammar, each optionally {@code Group=}), read as
     * {@link FilterList} reads them: {@code ;} between the targets of one filter, {@code ,}
     * or separate elements between filters; null for none.
     */
    public TfSettings filters(Collection<String> filters) {
        this.filters.addAll(FilterList.split(filters));
        return this;
    }

    /** Report what would be enhanced and write nothing. */
    public TfSettings dryRun(boolean dryRun) {
        this.dryRun = dryRun;
        return this;
    }

    /** Worker threads; 0 for one per core. */
    public TfSettings threads(int threads) {
        this.threads = threads;
        return this;
    }

    /** Keep the incremental cache (never used by a dry run, which writes nothing). */
    public TfSettings useCache(boolean useCache) {
        this.useCache = useCache;
        return this;
    }

    /** Whether the classes are left as compiled. */
    public boolean skip() {
        return skip;
    }

    /** The verbose level, 0 to 4 (see the class comment). */
    public int verbose() {
        return verbose;
    }

    /** Whether errors fail the build. */
    public boolean failOnError() {
        return failOnError;
    }

    /**
     * The request for one class directory, these settings applied; the caller adds what only
     * it knows (class paths, the annotation list's place).
     *
     * @param cacheDir the directory's incremental cache, used when {@code useCache} and not a dry run
     */
    public EnhanceRequest.Builder requestFor(String classDir, String cacheDir) {
        EnhanceRequest.Builder builder = EnhanceRequest.builder(classDir);
        if (useCache && !dryRun && cacheDir != null) {
            builder.cacheDir(cacheDir);
        }
        return builder.tracegen(tracegen).verbose(verbose).filters(filters).dryRun(dryRun).threads(threads)
                .failOnSkip(failOnSkip).failOnError(failOnError);
    }
}
