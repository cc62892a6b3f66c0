package org.tracingfacility.runtime.profile;

import java.util.Arrays;
import org.tracingfacility.runtime.support.ThreadsAtWork;
import org.tracingfacility.runtime.timing.TimingClock;

/**
 * One calling context of one thread: a monitored method reached through the path of its
 * ancestors. Only the owning thread changes the tree; other threads read it when a profile is
 * taken. Counters are plain fields (a profile taken while calls run may be a call behind);
 * children are published through a volatile array that is replaced, never changed in place,
 * so a reader sees fully built nodes.
 */
final class CallNode {
    private static final CallNode[] NONE = new CallNode[0];

    /** The frame of this context, or -1 for a thread's root. */
    final int frame;
    final CallNode parent;
    private volatile CallNode[] children = NONE;
    /** The child found last: a loop calling one method finds it without a scan. */
    private CallNode lastChild;

    long calls;
    /** In {@link TimingClock}'s unit; a report converts it. */
    long inclusiveTime;
    /**
     * When the running invocation of this context started. A context is entered at most once
     * at a time on its thread (a recursive call is a child context), so one field suffices.
     */
    long startedAt;

    CallNode(int frame, CallNode parent) {
        this.frame = frame;
        this.parent = parent;
    }

    /**
     * The child context of {@code childFrame}, created on first use (the only allocation);
     * null when it cannot be created now (no slot free to mark the thread at work).
     */
    CallNode child(int childFrame) {
        CallNode last = lastChild;
        if (last != null && last.frame == childFrame) {
            return last;
        }
        CallNode[] current = children;
        for (CallNode c : current) {
            if (c.frame == childFrame) {
                lastChild = c;
                return c;
            }
        }
        return created(childFrame, current);
    }

    /**
     * A new child context, at work ({@link ThreadsAtWork}): {@code Arrays.copyOf} is JDK code
     * the agent may trace, and {@code profile} is handed out without the mark around its
     * calls ({@link ProfileMonitor}). Null when no slot is free to mark the thread at work.
     */
    private CallNode created(int childFrame, CallNode[] current) {
        if (!ThreadsAtWork.enter()) {
            return null;
        }
        try {
            CallNode created = new CallNode(childFrame, this);
            CallNode[] grown = Arrays.copyOf(current, current.length + 1);
            grown[current.length] = created;
            children = grown;
            lastChild = created;
            return created;
        } finally {
            ThreadsAtWork.leave();
        }
    }

    CallNode[] children() {
        return children;
    }

    /** Zeroes the counters of this subtree; the contexts stay, so running calls still find them. */
    void reset() {
        calls = 0;
        inclusiveTime = 0;
        for (CallNode c : children) {
            c.reset();
        }
    }
}
