package org.tracingfacility.maven;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.maven.plugin.logging.Log;

/** A Maven {@link Log} that keeps every line, prefixed by its level, for assertions. */
final class RecordingLog implements Log {
    private final List<String> lines = new ArrayList<>();

    /** The messages logged at {@code level} ("debug", "info", "warn", "error"). */
    List<String> at(String level) {
        String prefix = level + ": ";
        return lines.stream().filter(l -> l.startsWith(prefix)).map(l -> l.substring(prefix.length()))
                .collect(Collectors.toList());
    }

    private void record(String level, CharSequence content, Throwable error) {
        lines.add(level + ": " + (content != null ? content : "") + (error != null ? " " + error : ""));
    }

    @Override public boolean isDebugEnabled() { return true; }
    @Override public void debug(CharSequence content) { record("debug", content, null); }
    @Override public void debug(CharSequence content, Throwable error) { record("debug", content, error); }
    @Override public void debug(Throwable error) { record("debug", null, error); }
    @Override public boolean isInfoEnabled() { return true; }
    @Override public void info(CharSequence content) { record("info", content, null); }
    @Override public void info(CharSequence content, Throwable error) { record("info", content, error); }
    @Override public void info(Throwable error) { record("info", null, error); }
    @Override public boolean isWarnEnabled() { return true; }
    @Override public void warn(CharSequence content) { record("warn", content, null); }
    @Override public void warn(CharSequence content, Throwable error) { record("warn", content, error); }
    @Override public void warn(Throwable error) { record("warn", null, error); }
    @Override public boolean isErrorEnabled() { return true; }
    @Override public void error(CharSequence content) { record("error", content, null); }
    @Override public void error(CharSequence content, Throwable error) { record("error", content, error); }
    @Override public void error(Throwable error) { record("error", null, error); }
}
