package org.tracingfacility.gradle;

import java.util.Collections;

import org.gradle.api.model.ObjectFactory;
import org.gradle.api.provider.ListProperty;
import org.gradle.api.provider.Property;
import org.tracingfacility.core.TfSettings;

/**
 * The {@code tf { }} block: the same settings as the Maven plugin's parameters, for every
 * source set of the project.
 *
 * <p>Every setting is a lazy property, read only when a compile task runs. Those that change
 * what the task writes ({@code skip}, {@code tracegen}, {@code failOnError}, {@code filters},
 * {@code dryRun}) are inputs of the compile tasks, so changing one compiles and enhances again;
 * those that change only the log or the speed ({@code verbose}, {@code threads},
 * {@code useCache}) are not, so changing them leaves the tasks UP-TO-DATE. The object holds
 * nothing but these properties, so a task action may keep it.
 *
 * <pre>{@code
 * tf {
 *     verbose = 1
 *     filters.add('com.example.Service::*')
 * }
 * }</pre>
 */
public class TfExtension {
    /** The name of the block in a build script. */
    public static final String NAME = "tf";

    private final Property<Boolean> skip;
    private final Property<Boolean> tracegen;
    private final Property<Integer> verbose;
    private final Property<Boolean> failOnError;
    private final Property<Boolean> failOnSkip;
    private final ListProperty<String> filters;
    private final Property<Integer> threads;
    private final Property<Boolean> dryRun;
    private final Property<Boolean> useCache;

    public TfExtension(ObjectFactory objects) {
        skip = objects.property(Boolean.class);
        skip.set(TfSettings.DEFAULT_SKIP);
        tracegen = objects.property(Boolean.class);
        tracegen.set(TfSettings.DEFAULT_TRACEGEN);
        verbose = objects.property(Integer.class);
        verbose.set(TfSettings.DEFAULT_VERBOSE);
        failOnError = objects.property(Boolean.class);
        failOnError.set(TfSettings.DEFAULT_FAIL_ON_ERROR);
        failOnSkip = objects.property(Boolean.class);
        failOnSkip.set(TfSettings.DEFAULT_FAIL_ON_SKIP);
        // Starts empty on every supported Gradle; ListProperty.set(Iterable) does not
        // exist on Gradle 4.x, so no default is set here.
        filters = objects.listProperty(String.class);
        threads = objects.property(Integer.class);
        threads.set(TfSettings.DEFAULT_THREADS);
        dryRun = objects.property(Boolean.class);
        dryRun.set(TfSettings.DEFAULT_DRY_RUN);
        useCache = objects.property(Boolean.class);
        useCache.set(TfSettings.DEFAULT_USE_CACHE);
    }

    /** Leave the classes as javac wrote them. Default false. */
    public Property<Boolean> getSkip() {
        return skip;
    }

    /** Add the tracing code (stage 2) after the schema changes (stage 1). Default true. */
    public Property<Boolean> getTracegen() {
        return tracegen;
    }

    /**
     * How much the core reports: 0 the summary line alone (at info); 1 also each class
     * enhanced; 2 also each method; 3 also what enhancing changed in each class and the TF
     * annotations found; 4 everything (see {@link TfSettings}). Default 0. Not a task input.
     */
    public Property<Integer> getVerbose() {
        return verbose;
    }

    /**
     * Fail the build when a class breaks a rule or cannot be read. Default true; when false,
     * every class without an error is enhanced and the others are left as they were.
     */
    public Property<Boolean> getFailOnError() {
        return failOnError;
    }

    /**
     * Fail the build when a method selected only by a filter cannot be enhanced. Default
     * false: it is left as it was, with a warning, and counted in the summary.
     */
    public Property<Boolean> getFailOnSkip() {
        return failOnSkip;
    }

    /**
     * Methods to trace without annotating them, in JDK 25 method-timing filter grammar, each
     * optionally prefixed by {@code Group=}; {@code ;} separates the targets of one filter
     * ({@code 'IO=a.B::x;c.D::y'}: both in {@code IO}), {@code ,} or another element separates
     * filters, as in the Maven plugin and the agent (core-jni's {@code FilterList}). Default none.
     */
    public ListProperty<String> getFilters() {
        return filters;
    }

    /** Worker threads of the core; 0 means one per processor. Default 0. Not a task input. */
    public Property<Integer> getThreads() {
        return threads;
    }

    /** Report what would be enhanced and write nothing: the classes stay as compiled. Default false. */
    public Property<Boolean> getDryRun() {
        return dryRun;
    }

    /**
     * Keep the incremental cache ({@code build/tf/cache/<compileTask>}): only classes whose
     * bytes changed are enhanced again. The output is the same either way. Default true. Not a
     * task input.
     */
    public Property<Boolean> getUseCache() {
        return useCache;
    }

    /** These settings as the core's, read now (when the compile task runs). */
    TfSettings toSettings() {
        return new TfSettings().skip(skip.get()).tracegen(tracegen.get()).verbose(verbose.get())
                .failOnError(failOnError.get()).failOnSkip(failOnSkip.get())
                .filters(filters.getOrElse(Collections.emptyList())).dryRun(dryRun.get()).threads(threads.get())
                .useCache(useCache.get());
    }
}
