package org.tracingfacility.maven;

import org.apache.maven.plugin.logging.Log;
import org.tracingfacility.core.BuildLog;

/** The core's report onto Maven's log: progress and the summary at info, as Maven plugins do. */
final class MavenBuildLog implements BuildLog {
    private final Log log;

    MavenBuildLog(Log log) {
        this.log = log;
    }

    @Override
    public void progress(String line) {
        log.info(line);
    }

    @Override
    public void debug(String line) {
        log.debug(line);
    }

    @Override
    public void summary(String line) {
        log.info(line);
    }

    @Override
    public void warn(String line) {
        log.warn(line);
    }

    @Override
    public void error(String line) {
        log.error(line);
    }
}
