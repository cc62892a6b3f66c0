package org.tracingfacility.runtime.profile;

import org.tracingfacility.runtime.TimingPointType;
import org.tracingfacility.runtime.support.SelfGuardedMonitor;
import org.tracingfacility.runtime.timing.TimingClock;

/**
 * Records the calls of one class's monitored methods into the calling thread's tree. Wants no
 * arguments; once a context exists, a call looks up the thread's profile and moves one pointer
 * down and up, and reads the clock twice when calls are timed ({@code profile}; {@code calls}
 * counts them only): nothing is allocated.
 *
 * <p>Self-guarded ({@link SelfGuardedMonitor}): a class the agent traced gets this monitor
 * without the per-thread mark around each call. Once its thread has claimed a slot of the
 * factory ({@link ProfileFactory#threadProfile()}) and its context exists, a call runs TF's
 * code, the clock and field updates; the ways to a profile (the factory's
 * {@code ThreadLocal}) and to a new context ({@code Arrays.copyOf}) run at work.
 */
final class ProfileMonitor implements SelfGuardedMonitor {
    private final Class<?> cls;
    private final ProfileFactory factory;
    /** The frame of each method identifier. */
    private final int[] frames;
    /** Whether calls are timed, or only counted. */
    private final boolean timed;

    ProfileMonitor(Class<?> cls, ProfileFactory factory, int[] frames, boolean timed) {
        this.cls = cls;
        this.factory = factory;
        this.frames = frames;
        this.timed = timed;
    }

    @Override
    public Class<?> myClass() {
        return cls;
    }

    @Override
    public void enter(int ident, Object... args) {
        ThreadProfile profile = ident >= 0 && ident < frames.length ? factory.threadProfile() : null;
        if (profile != null) {
            profile.enter(frames[ident]);
        }
    }

    @Override
    public void exit(int ident) {
        end(ident);
    }

    @Override
    public void exit(int ident, Object result) {
        end(ident);
    }

    @Override
    public void info(Object[] args, int callerIdent, int selfIdent, TimingPointType tpType) {
        // Info points are not calls: the tree holds monitored methods only.
    }

    @Override
    public void exception(int ident, Throwable thr) {
        // The exit that follows ends the call.
    }

    @Override
    public void clear() {
        factory.clear();
    }

    @Override
    public boolean wantsArguments() {
        return false;
    }

    private void end(int ident) {
        long now = timed ? TimingClock.now() : 0; // first: the look-up below is not the method's time
        ThreadProfile profile = ident >= 0 && ident < frames.length ? factory.threadProfile() : null;
        if (profile != null) {
            profile.exit(frames[ident], now); // an exit whose entry was dropped is ignored there
        }
    }
}
