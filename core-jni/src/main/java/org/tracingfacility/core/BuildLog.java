package org.tracingfacility.core;

/**
 * Where {@link Enhancement} writes what a run did, by meaning rather than by level: each
 * plugin maps these onto its own logger (Maven's {@code Log}, Gradle's {@code Logger}), so
 * both show the same lines at the same verbosity.
 */
public interface BuildLog {
    /** The core's progress lines at {@code verbose} 1 and above: shown by default. */
    void progress(String line);

    /** The core's progress lines at {@code verbose} 0: only in a debug log. */
    void debug(String line);

    /** The one summary line of a successful run. */
    void summary(String line);

    void warn(String line);

    void error(String line);
}
