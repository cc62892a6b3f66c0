package org.tracingfacility.maven;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugin.logging.Log;
import org.apache.maven.plugins.annotations.Component;
import org.apache.maven.plugins.annotations.Parameter;
import org.codehaus.plexus.build.BuildContext;
import org.tracingfacility.core.EnhanceRequest;
import org.tracingfacility.core.Enhancement;
import org.tracingfacility.core.NativeCoreException;
import org.tracingfacility.core.TfSettings;

/**
 * What both goals share: the settings, one call to the native core over one class
 * directory, and how its report reaches the build log. The goals only say which directory
 * and which class path.
 *
 * <p>Parameter fields are package-private and start at their documented defaults, so tests
 * can configure a goal as Maven would, without a plugin test harness.
 */
abstract class AbstractEnhanceMojo extends AbstractMojo {
    /** Skip TF enhancement (both goals). */
    @Parameter(property = "tf.skip", defaultValue = "" + TfSettings.DEFAULT_SKIP)
    boolean skip = TfSettings.DEFAULT_SKIP;

    /** Run stage 2 (inject the tracing code) after stage 1 (the class schema). */
    @Parameter(property = "tf.tracegen", defaultValue = "" + TfSettings.DEFAULT_TRACEGEN)
    boolean tracegen = TfSettings.DEFAULT_TRACEGEN;

    /**
     * 0 the summary line alone; 1 also each class enhanced; 2 also each method; 3 also what
     * enhancing changed in each class and the TF annotations found; 4 everything (see
     * {@link TfSettings}). Above 0 these lines go to the info log, else to debug.
     */
    @Parameter(property = "tf.verbose", defaultValue = "" + TfSettings.DEFAULT_VERBOSE)
    int verbose = TfSettings.DEFAULT_VERBOSE;

    /**
     * Fail the build on enhancement errors; when false they are logged as errors, every class
     * without one is enhanced, those with one are left as they were, and the build goes on.
     */
    @Parameter(property = "tf.failOnError", defaultValue = "" + TfSettings.DEFAULT_FAIL_ON_ERROR)
    boolean failOnError = TfSettings.DEFAULT_FAIL_ON_ERROR;

    /**
     * Fail the build when a method selected only by a filter cannot be enhanced; when false
     * (the default) it is left as it was, with a warning, and counted in the summary.
     */
    @Parameter(property = "tf.failOnSkip", defaultValue = "" + TfSettings.DEFAULT_FAIL_ON_SKIP)
    boolean failOnSkip = TfSettings.DEFAULT_FAIL_ON_SKIP;

    /**
     * Methods to trace in addition to annotated ones, in JEP 520's filter grammar, each
     * optionally prefixed by {@code Group=}; {@code ;} separates the targets of one filter, as in
     * JFR and the Gradle plugin and the agent. Each filter its own element, or several separated
     * by {@code ,}: {@code -Dtf.filters="IO=com.example.Io::read;com.example.Io::write,com.example.Foo::bar"}
     * puts {@code read} and {@code write} in {@code IO}, {@code bar} in {@code Filtered}.
     */
    @Parameter(property = "tf.filters")
    List<String> filters;

    /** Report what would be done and write nothing. */
    @Parameter(property = "tf.dryRun", defaultValue = "" + TfSettings.DEFAULT_DRY_RUN)
    boolean dryRun = TfSettings.DEFAULT_DRY_RUN;

    /** Worker threads; 0 means one per core. */
    @Parameter(property = "tf.threads", defaultValue = "" + TfSettings.DEFAULT_THREADS)
    int threads = TfSettings.DEFAULT_THREADS;

    /**
     * Keep an incremental cache (see {@link #cacheDirectory()}): classes whose bytes did not
     * change are neither read nor enhanced again. Deleting the cache never changes the output.
     */
    @Parameter(property = "tf.useCache", defaultValue = "" + TfSettings.DEFAULT_USE_CACHE)
    boolean useCache = TfSettings.DEFAULT_USE_CACHE;

    /** Change detection and refresh of written files in incremental IDE builds (Eclipse m2e). */
    @Component
    BuildContext buildContext;

    /** The directory whose classes are enhanced in place. */
    abstract File classDirectory();

    /** The incremental cache of that directory, under the build directory. */
    abstract File cacheDirectory();

    /** Class path entries searched for TF annotation types defined outside the directory. */
    abstract List<String> classpathElements();

    /**
     * Whether a filter that selects nothing in this directory deserves a warning: filters are
     * written for the main classes, and each would warn again over the test classes.
     */
    abstract boolean warnsOfUnusedFilters();

    /** The class path the classes will run with, where tf-runtime must be. */
    abstract List<String> runtimeClasspathElements();

    /** Mistakes of the project's setup that the core cannot see, one warning line each. */
    List<String> setupWarnings() {
        return List.of();
    }

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        Log log = getLog();
        if (skip) {
            log.info("TF enhancement skipped (tf.skip=true)");
            return;
        }
        File classDirectory = classDirectory();
        if (!classDirectory.isDirectory()) {
            log.info("TF enhancement skipped: no class directory " + classDirectory);
            return;
        }
        if (buildContext != null && buildContext.isIncremental() && !buildContext.hasDelta(classDirectory)) {
            log.debug("TF: no class changed in " + classDirectory);
            return;
        }
        setupWarnings().forEach(log::warn);
        EnhanceRequest.Builder builder = settings().requestFor(classDirectory.getPath(), cacheDirectory().getPath())
                .classpath(classpathWithout(classDirectory, classpathElements()))
                .warnUnusedFilters(warnsOfUnusedFilters());
        if (runtimeClasspathElements() != null) {
            builder.runtimeClasspath(runtimeClasspathElements());
        }
        Enhancement enhancement = callCore(builder.build());
        if (buildContext != null) {
            enhancement.report().written().forEach(file -> buildContext.refresh(new File(file)));
        }
        if (enhancement.failure().isPresent()) {
            throw new MojoFailureException(enhancement.failure().get());
        }
    }

    /** This goal's parameters as the settings both plugins share (the filters read by core-jni's FilterList). */
    TfSettings settings() {
        return new TfSettings().tracegen(tracegen).verbose(verbose).failOnError(failOnError).failOnSkip(failOnSkip)
                .filters(filters).dryRun(dryRun).threads(threads).useCache(useCache);
    }

    private Enhancement callCore(EnhanceRequest request) throws MojoExecutionException {
        try {
            return Enhancement.run(request, new MavenBuildLog(getLog()));
        } catch (NativeCoreException e) {
            // The core itself failed (no native library for this platform, a panic, ...),
            // which is not the user's classes' fault: an execution error, not a failure.
            throw new MojoExecutionException("TF could not run its native core: " + e.getMessage(), e);
        }
    }

    private static List<String> classpathWithout(File classDirectory, List<String> elements) {
        List<String> entries = new ArrayList<>();
        if (elements != null) {
            for (String element : elements) {
                if (!new File(element).getAbsoluteFile().equals(classDirectory.getAbsoluteFile())) {
                    entries.add(element);
                }
            }
        }
        return entries;
    }
}
