package org.tracingfacility.runtime;

import org.tracingfacility.runtime.support.SelfGuardedMonitor;

/** A monitor that ignores everything; it wants no arguments, so calls cost no allocation. */
class NoOpMonitor implements MethodMonitor {
    private final Class<?> cls;

    NoOpMonitor(Class<?> cls) {
        this.cls = cls;
    }

    @Override
    public Class<?> myClass() {
        return cls;
    }

    @Override
    public void enter(int ident, Object... args) {
    }

    @Override
    public void info(Object[] args, int callerIdent, int selfIdent, TimingPointType tpType) {
    }

    @Override
    public void exit(int ident) {
    }

    @Override
    public void exit(int ident, Object result) {
    }

    @Override
    public void exception(int ident, Throwable thr) {
    }

    @Override
    public void clear() {
    }

    @Override
    public boolean wantsArguments() {
        return false;
    }

    /**
     * The {@code noOp} factory's monitor: it runs no code at all, so a class the agent traced
     * gets it without the per-thread mark around each call ({@link SelfGuardedMonitor}).
     * Final and apart from {@link NoOpMonitor}, which tests extend with monitors that do
     * call traced code.
     */
    static final class SelfGuarded extends NoOpMonitor implements SelfGuardedMonitor {
        SelfGuarded(Class<?> cls) {
            super(cls);
        }
    }
}
