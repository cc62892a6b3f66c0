package org.tracingfacility.maven;

import java.io.File;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import org.codehaus.plexus.build.BuildContext;
import org.codehaus.plexus.util.Scanner;

/** A BuildContext as Eclipse m2e would hand the goal one: it records what the goal refreshes. */
final class RecordingBuildContext implements BuildContext {
    final List<File> refreshed = new ArrayList<>();
    private final boolean incremental;
    private final boolean delta;

    RecordingBuildContext(boolean incremental, boolean delta) {
        this.incremental = incremental;
        this.delta = delta;
    }

    @Override
    public boolean isIncremental() {
        return incremental;
    }

    @Override
    public boolean hasDelta(File file) {
        return delta;
    }

    @Override
    public boolean hasDelta(String relativePath) {
        return delta;
    }

    @Override
    public boolean hasDelta(List<String> relativePaths) {
        return delta;
    }

    @Override
    public void refresh(File file) {
        refreshed.add(file);
    }

    @Override
    public OutputStream newFileOutputStream(File file) {
        throw new UnsupportedOperationException("TF writes through its native core");
    }

    @Override
    public Scanner newScanner(File basedir) {
        throw new UnsupportedOperationException();
    }

    @Override
    public Scanner newDeleteScanner(File basedir) {
        throw new UnsupportedOperationException();
    }

    @Override
    public Scanner newScanner(File basedir, boolean ignoreDelta) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void setValue(String key, Object value) {
    }

    @Override
    public Object getValue(String key) {
        return null;
    }

    @Override
    public void addWarning(File file, int line, int column, String message, Throwable cause) {
    }

    @Override
    public void addError(File file, int line, int column, String message, Throwable cause) {
    }

    @Override
    public void addMessage(File file, int line, int column, String message, int severity, Throwable cause) {
    }

    @Override
    public void removeMessages(File file) {
    }

    @Override
    public boolean isUptodate(File target, File source) {
        return false;
    }
}
