package org.tracingfacility.runtime;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/** A factory whose monitors write every event, labelled, to a list the test reads. */
final class RecordingFactory implements MethodMonitorFactory {
    private final String label;
    private final List<String> events = Collections.synchronizedList(new ArrayList<>());
    final List<Class<?>> created = Collections.synchronizedList(new ArrayList<>());

    RecordingFactory(String label) {
        this.label = label;
    }

    List<String> events() {
        synchronized (events) {
            return List.copyOf(events);
        }
    }

    @Override
    public MethodMonitor create(Class<?> cls) {
        created.add(cls);
        return new MethodMonitor() {
            @Override
            public Class<?> myClass() {
                return cls;
            }

            @Override
            public void enter(int ident, Object... args) {
                record("enter " + name(ident) + Arrays.toString(args));
            }

            @Override
            public void info(Object[] args, int callerIdent, int selfIdent, TimingPointType tpType) {
                record("info " + name(callerIdent) + ">" + name(selfIdent) + Arrays.toString(args) + " " + tpType);
            }

            @Override
            public void exit(int ident) {
                record("exit " + name(ident));
            }

            @Override
            public void exit(int ident, Object result) {
                record("exit " + name(ident) + "=" + result);
            }

            @Override
            public void exception(int ident, Throwable thr) {
                record("exception " + name(ident) + " " + thr.getMessage());
            }

            @Override
            public void clear() {
                events.clear();
            }

            private String name(int ident) {
                return cls.getSimpleName() + "." + MethodMonitorRegistry.methodName(cls, ident);
            }
        };
    }

    private void record(String event) {
        events.add(label + ":" + event);
    }

    @Override
    public String toString() {
        return label;
    }
}
