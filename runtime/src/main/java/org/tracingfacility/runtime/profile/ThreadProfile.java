package org.tracingfacility.runtime.profile;

import org.tracingfacility.runtime.timing.TimingClock;

/** One thread's calling-context tree, and where in it the thread is now. */
final class ThreadProfile {
    /**
     * The deepest context kept. Calls below it (deep recursion) are counted as time of their
     * ancestor at this depth, which keeps the tree, and the recursive walks that export it,
     * bounded.
     */
    static final int MAX_DEPTH = 512;

    final Thread thread;
    /**
     * Set (under the factory's lock) once the thread has ended and its tree is folded into
     * the factory's: a claim slot holding this profile may pass to another thread.
     */
    boolean retired;
    final CallNode root = new CallNode(-1, null);
    /** The innermost running monitored call of the thread, or the root. */
    private CallNode current = root;
    private int depth;
    /** Running calls below {@link #MAX_DEPTH}, not in the tree. */
    private int beyondMaxDepth;

    ThreadProfile(Thread thread) {
        this.thread = thread;
    }

    void enter(int frame) {
        if (depth == MAX_DEPTH) {
            beyondMaxDepth++;
            return;
        }
        CallNode node = current.child(frame);
        if (node == null) {
            beyondMaxDepth++; // not kept, as a call too deep is not: its exit is dropped too
            return;
        }
        current = node;
        depth++;
        node.startedAt = TimingClock.now();
    }

    /**
     * Ends, at {@code now} (read by the caller before it looked this profile up), the running
     * call of {@code frame}. A mismatch (an exit without its entry, which enhanced code never
     * produces) is ignored rather than corrupting the tree.
     */
    void exit(int frame, long now) {
        if (beyondMaxDepth > 0) {
            beyondMaxDepth--;
            return;
        }
        CallNode node = current;
        if (node.frame != frame || node.parent == null) {
            return;
        }
        node.calls++;
        node.inclusiveTime += now - node.startedAt;
        current = node.parent;
        depth--;
    }
}
