package org.tracingfacility.runtime.profile;

import org.tracingfacility.runtime.TimingPointType;
import org.tracingfacility.runtime.support.SelfGuardedMonitor;
import org.tracingfacility.runtime.timing.TimingClock;

/**
 * Records the calls of one class's monitored methods into the calling thread's tree. Wants no
 * arguments; once a context exists, a call looks up the thread's profile and moves its place
 * (a number) down and up, and reads the clock twice when calls are timed ({@code profile}; {@code calls}
 * counts them only): nothing is allocated.
 *
 * <p>The entry's look-up is the exit's too: {@link #enterWithToken} answers the thread's claim
 * slot ({@link ProfileFactory#threadProfile()}), and the exit finds the profile there with
 * one load and a compare of the thread, without the thread's key. Finding the thread's
 * profile, at entry and at exit, was about a third of what {@code calls} cost the whole JDK
 * (bench/agent/whole-jdk).
 *
 * <p>Self-guarded ({@link SelfGuardedMonitor}): a class the agent traced gets this monitor
 * without the per-thread mark around each call. Once its thread has claimed a slot of the
 * factory and its context exists, a call runs TF's code, the clock and field updates; the
 * ways to a profile (the factory's {@code ThreadLocal}) and to a new context
 * ({@code Arrays.copyOf}) run at work.
 */
final class ProfileMonitor implements SelfGuardedMonitor {
    /** The token of an entry that found the thread's profile another way than its claim. */
    private static final long NO_CLAIM = 0;

    private final Class<?> cls;
    private final ProfileFactory factory;
    /** The factory's claim slots ({@link ProfileFactory#claims()}), one load nearer. */
    private final ThreadProfile[] claims;
    /** The frame of each method identifier. */
    private final int[] frames;
    /** Whether calls are timed, or only counted. */
    private final boolean timed;

    ProfileMonitor(Class<?> cls, ProfileFactory factory, int[] frames, boolean timed) {
        this.cls = cls;
        this.factory = factory;
        this.claims = factory.claims();
        this.frames = frames;
        this.timed = timed;
    }

    @Override
    public Class<?> myClass() {
        return cls;
    }

    @Override
    public void enter(int ident, Object... args) {
        enterWithToken(ident, args);
    }

    /** Enters the call; the token is the thread's claim slot plus one, or {@link #NO_CLAIM}. */
    @Override
    public long enterWithToken(int ident, Object... args) {
        if (ident < 0 || ident >= frames.length) {
            return NO_CLAIM;
        }
        int home = ProfileFactory.home();
        ThreadProfile claim = claims[home];
        if (claim != null && claim.thread == Thread.currentThread()) {
            claim.enter(frames[ident]);
            return home + 1L;
        }
        return enterAway(ident, home);
    }

    /** {@link #enterWithToken} of a thread whose claim is not at its home slot, or who has none. */
    private long enterAway(int ident, int home) {
        int slot = factory.claimedSlot(home);
        ThreadProfile profile = slot >= 0 ? claims[slot] : factory.unclaimed();
        if (profile != null) {
            profile.enter(frames[ident]);
        }
        return slot >= 0 ? slot + 1L : NO_CLAIM;
    }

    @Override
    public void exit(int ident) {
        end(ident, NO_CLAIM);
    }

    @Override
    public void exit(int ident, Object result) {
        end(ident, NO_CLAIM);
    }

    @Override
    public void exitWithToken(int ident, long token) {
        end(ident, token);
    }

    @Override
    public void exitWithToken(int ident, Object result, long token) {
        end(ident, token);
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

    /**
     * Ends the call, finding the thread's profile in the claim slot the entry's token names.
     * A live thread's claim is never given to another ({@link ProfileFactory}), so the compare
     * only guards against a token that is not this thread's: then, and without a token, the
     * full look-up runs.
     */
    private void end(int ident, long token) {
        long now = timed ? TimingClock.now() : 0; // first: the look-up below is not the method's time
        if (ident < 0 || ident >= frames.length) {
            return;
        }
        ThreadProfile profile = token > NO_CLAIM && token <= claims.length ? claims[(int) token - 1] : null;
        if (profile == null || profile.thread != Thread.currentThread()) {
            profile = factory.threadProfile();
        }
        if (profile != null) {
            profile.exit(frames[ident], now); // an exit whose entry was dropped is ignored there
        }
    }
}
