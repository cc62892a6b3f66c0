package org.tracingfacility.runtime.jfr;

import java.util.ArrayDeque;
import jdk.jfr.EventType;
import org.tracingfacility.runtime.MethodMonitor;
import org.tracingfacility.runtime.MethodMonitorRegistry;
import org.tracingfacility.runtime.TimingPointType;

/**
 * Emits a trace event per invocation, and feeds the timing statistics behind the periodic
 * timing events.
 */
final class JfrMonitor implements MethodMonitor {
    /** The thread's open trace events, innermost last; shared by all JFR monitors. */
    private static final ThreadLocal<ArrayDeque<MethodTraceEvent>> OPEN =
            ThreadLocal.withInitial(ArrayDeque::new);
    private static final EventType TRACE_TYPE = EventType.getEventType(MethodTraceEvent.class);
    /**
     * Stands for an invocation entered while no recording wanted trace events, so that enter
     * and exit still pair up if a recording starts in between. Never committed.
     */
    private static final MethodTraceEvent NOT_RECORDED = new MethodTraceEvent();

    private final Class<?> cls;
    private final MethodMonitor timing;
    private final String[] methodNames;

    JfrMonitor(Class<?> cls, MethodMonitor timing) {
        this.cls = cls;
        this.timing = timing;
        this.methodNames = MethodMonitorRegistry.methodNames(cls).stream()
                .map(name -> cls.getName() + "." + name)
                .toArray(String[]::new);
    }

    @Override
    public Class<?> myClass() {
        return cls;
    }

    @Override
    public void enter(int ident, Object... args) {
        open();
        timing.enter(ident, args);
    }

    /** The timing monitor's token: its start time travels in the frame, as from enhanced code. */
    @Override
    public long enterWithToken(int ident, Object... args) {
        open();
        return timing.enterWithToken(ident, args);
    }

    @Override
    public void info(Object[] args, int callerIdent, int selfIdent, TimingPointType tpType) {
        timing.info(args, callerIdent, selfIdent, tpType);
    }

    @Override
    public void exit(int ident) {
        timing.exit(ident);
        commit(ident);
    }

    @Override
    public void exit(int ident, Object result) {
        timing.exit(ident, result);
        commit(ident);
    }

    @Override
    public void exitWithToken(int ident, long token) {
        timing.exitWithToken(ident, token);
        commit(ident);
    }

    @Override
    public void exitWithToken(int ident, Object result, long token) {
        timing.exitWithToken(ident, result, token);
        commit(ident);
    }

    @Override
    public void exception(int ident, Throwable thr) {
        MethodTraceEvent event = OPEN.get().peekLast();
        if (event != null && event != NOT_RECORDED) {
            event.exception = thr.getClass().getName();
        }
    }

    @Override
    public void clear() {
        timing.clear();
    }

    @Override
    public boolean wantsArguments() {
        return false;
    }

    /**
     * Opens the invocation's trace event. JFR's events take their start time from JFR
     * itself ({@code begin()}), so the event stays on a per-thread stack: the token cannot
     * carry it.
     */
    private void open() {
        MethodTraceEvent event = NOT_RECORDED;
        if (TRACE_TYPE.isEnabled()) {
            event = new MethodTraceEvent(); // only while recording: no garbage otherwise
            event.begin();
        }
        OPEN.get().addLast(event);
    }

    private void commit(int ident) {
        MethodTraceEvent event = OPEN.get().pollLast();
        if (event == null || event == NOT_RECORDED) {
            return; // entered before this monitor was attached, or while not recording
        }
        event.end();
        if (event.shouldCommit()) {
            event.method = ident >= 0 && ident < methodNames.length ? methodNames[ident] : cls.getName() + ".#" + ident;
            event.commit();
        }
    }
}
