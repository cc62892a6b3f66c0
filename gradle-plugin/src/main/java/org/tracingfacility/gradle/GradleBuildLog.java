package org.tracingfacility.gradle;

import org.gradle.api.logging.Logger;
import org.tracingfacility.core.BuildLog;

/**
 * The core's report onto a task's logger: asked-for progress at lifecycle (shown by default),
 * the summary at info (Gradle builds are quiet unless something is wrong).
 */
final class GradleBuildLog implements BuildLog {
    private final Logger logger;

    GradleBuildLog(Logger logger) {
        this.logger = logger;
    }

    @Override
    public void progress(String line) {
        logger.lifecycle(line);
    }

    @Override
    public void debug(String line) {
        logger.debug(line);
    }

    @Override
    public void summary(String line) {
        logger.info(line);
    }

    @Override
    public void warn(String line) {
        logger.warn(line);
    }

    @Override
    public void error(String line) {
        logger.error(line);
    }
}
