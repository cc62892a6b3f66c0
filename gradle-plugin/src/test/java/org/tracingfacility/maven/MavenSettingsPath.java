package org.tracingfacility.maven;

import java.util.List;
import org.tracingfacility.core.TfSettings;

/**
 * The Maven plugin's way from its parameters to the shared settings, reached from the Gradle
 * plugin's tests (same package, so the goal's fields are set as Maven would set them).
 */
public final class MavenSettingsPath {
    private MavenSettingsPath() {}

    /** What {@code tf:enhance} hands on with these parameter values. */
    public static TfSettings settings(boolean tracegen, int verbose, boolean failOnError, boolean failOnSkip,
            List<String> filters, boolean dryRun, int threads, boolean useCache) {
        EnhanceMojo mojo = new EnhanceMojo();
        mojo.tracegen = tracegen;
        mojo.verbose = verbose;
        mojo.failOnError = failOnError;
        mojo.failOnSkip = failOnSkip;
        mojo.filters = filters;
        mojo.dryRun = dryRun;
        mojo.threads = threads;
        mojo.useCache = useCache;
        return mojo.settings();
    }
}
