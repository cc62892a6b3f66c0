package org.tracingfacility.runtime;

import java.util.List;

/**
 * Hands every event to several monitors, in order. Wants arguments if any of them does;
 * the others then receive values they would have done without.
 *
 * <p>It keeps {@link MethodMonitor}'s default token methods: one token cannot carry the
 * state of several monitors, so enhanced code's {@code enterWithToken} and
 * {@code exitWithToken} reach the parts as plain {@code enter} and {@code exit}, which every
 * monitor pairs up by itself.
 */
final class CompositeMonitor implements MethodMonitor {
    private final Class<?> cls;
    private final MethodMonitor[] monitors;
    private final boolean wantsArguments;

    CompositeMonitor(Class<?> cls, List<MethodMonitor> monitors) {
        this.cls = cls;
        this.monitors = monitors.toArray(new MethodMonitor[0]);
        boolean any = false;
        for (MethodMonitor monitor : this.monitors) {
            any |= monitor.wantsArguments();
        }
        this.wantsArguments = any;
    }

    @Override
    public Class<?> myClass() {
        return cls;
    }

    @Override
    public void enter(int ident, Object... args) {
        for (MethodMonitor monitor : monitors) {
            monitor.enter(ident, args);
        }
    }

    @Override
    public void info(Object[] args, int callerIdent, int selfIdent, TimingPointType tpType) {
        for (MethodMonitor monitor : monitors) {
            monitor.info(args, callerIdent, selfIdent, tpType);
        }
    }

    @Override
    public void exit(int ident) {
        for (MethodMonitor monitor : monitors) {
            monitor.exit(ident);
        }
    }

    @Override
    public void exit(int ident, Object result) {
        for (MethodMonitor monitor : monitors) {
            monitor.exit(ident, result);
        }
    }

    @Override
    public void exception(int ident, Throwable thr) {
        for (MethodMonitor monitor : monitors) {
            monitor.exception(ident, thr);
        }
    }

    @Override
    public void clear() {
        for (MethodMonitor monitor : monitors) {
            monitor.clear();
        }
    }

    @Override
    public boolean wantsArguments() {
        return wantsArguments;
    }
}
