package org.tracingfacility.it;

import java.util.ArrayList;
import java.util.List;
import org.tracingfacility.runtime.MethodMonitor;
import org.tracingfacility.runtime.TimingPointType;

/** Records every enter and exit, in order, as {@code enter <ident>} / {@code exit <ident>}. */
final class RecordingMonitor implements MethodMonitor {
    private static final List<String> EVENTS = new ArrayList<>();

    private final Class<?> cls;

    RecordingMonitor(Class<?> cls) {
        this.cls = cls;
    }

    /** The events since the last call, and a fresh start. */
    static synchronized List<String> drain() {
        List<String> seen = new ArrayList<>(EVENTS);
        EVENTS.clear();
        return seen;
    }

    private static synchronized void record(String event) {
        EVENTS.add(event);
    }

    @Override public Class<?> myClass() { return cls; }

    @Override public void enter(int ident, Object... args) { record("enter " + ident); }

    @Override public void info(Object[] args, int callerIdent, int selfIdent, TimingPointType tpType) {}

    @Override public void exit(int ident) { record("exit " + ident); }

    @Override public void exit(int ident, Object result) { record("exit " + ident); }

    @Override public void exception(int ident, Throwable thr) {}

    @Override public void clear() {}
}
