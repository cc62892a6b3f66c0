package org.tracingfacility.core;

import java.util.List;
import java.util.Optional;

/**
 * One class directory through the native core, and its report onto a build log: the one place
 * both plugins do this, so that a Maven and a Gradle build of the same project say the same.
 */
public final class Enhancement {
    private final EnhanceReport report;
    private final String failure;

    private Enhancement(EnhanceReport report, String failure) {
        this.report = report;
        this.failure = failure;
    }

    /**
     * Runs {@code request} and writes its report to {@code log}.
     *
     * @throws NativeCoreException when the core itself could not run (no library for this
     *     platform, a panic): not the classes' fault; both plugins catch this one type
     */
    public static Enhancement run(EnhanceRequest request, BuildLog log) {
        EnhanceReport report = TfCore.enhance(request);
        return new Enhancement(report, log(report, request, log).orElse(null));
    }

    /** The core's report of the run. */
    public EnhanceReport report() {
        return report;
    }

    /**
     * The failure the plugin must raise (a first line saying where, then every error on a line
     * of its own), or empty when the build goes on: with failOnError false, errors are logged.
     */
    public Optional<String> failure() {
        return Optional.ofNullable(failure);
    }

    static Optional<String> log(EnhanceReport report, EnhanceRequest request, BuildLog log) {
        report.warnings().forEach(log::warn);
        for (String message : report.messages()) {
            if (request.verbose() > 0) {
                log.progress(message);
            } else {
                log.debug(message);
            }
        }
        if (report.ok()) {
            log.summary(report.summary());
            return Optional.empty();
        }
        log.error(report.summary());
        String failure = describeFailure(request.classDir(), report.errors(), request.failOnError());
        if (request.failOnError()) {
            return Optional.of(failure);
        }
        failure.lines().forEach(log::error);
        log.warn("TF: continuing because failOnError is false");
        return Optional.empty();
    }

    /** A first line saying where and how many, then every diagnostic on a line of its own. */
    private static String describeFailure(String classDir, List<Diagnostic> errors, boolean nothingWritten) {
        StringBuilder text = new StringBuilder("TF found ").append(errors.size())
                .append(errors.size() == 1 ? " error" : " errors").append(" in ").append(classDir)
                .append(nothingWritten ? "; nothing was written:" : "; the classes with errors were left as they were:");
        for (Diagnostic error : errors) {
            text.append("\n  ").append(error);
        }
        return text.toString();
    }
}
