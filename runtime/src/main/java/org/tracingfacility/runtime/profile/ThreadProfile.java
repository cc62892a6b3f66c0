package org.tracingfacility.runtime.profile;

import org.tracingfacility.runtime.timing.TimingClock;

/**
 * One thread's calling-context tree, and where in it the thread is now: a context's number
 * ({@link TreeIndex}), so that a call stores no reference. Padded ({@link CacheLinePadding}):
 * every call writes {@link #current}, and the profiles of threads running at once lie side by
 * side once the collector has moved them.
 */
final class ThreadProfile extends CacheLinePadding {
    /**
     * The deepest context kept. Calls below it (deep recursion) are counted as time of their
     * ancestor at this depth, which keeps the tree, and the recursive walks that export it,
     * bounded.
     */
    static final int MAX_DEPTH = 512;

    final Thread thread;
    /** Whether calls are timed; else only counted, and the clock is never read. */
    private final boolean timed;
    /**
     * Set (under the factory's lock) once the thread has ended and its tree is folded into
     * the factory's or taken over by a new thread's profile: a claim slot holding this
     * profile may pass to another thread.
     */
    boolean retired;
    final CallNode root;
    /** The contexts of the tree by number. */
    final TreeIndex tree;
    /** The number of the innermost running monitored call's context, or the root's. */
    private int current;
    private int depth;
    /** Running calls below {@link #MAX_DEPTH}, not in the tree. */
    private int beyondMaxDepth;

    /** A profile of {@code thread} adding to {@code tree}, which no other live thread adds to. */
    ThreadProfile(Thread thread, boolean timed, TreeIndex tree) {
        this.thread = thread;
        this.timed = timed;
        this.tree = tree;
        this.root = tree.root;
        this.current = tree.root.id;
    }

    void enter(int frame) {
        if (depth == MAX_DEPTH) {
            beyondMaxDepth++;
            return;
        }
        CallNode node = tree.nodes[current].child(frame, tree);
        if (node == null) {
            beyondMaxDepth++; // not kept, as a call too deep is not: its exit is dropped too
            return;
        }
        current = node.id;
        depth++;
        if (timed) {
            ((CallNode.Timed) node).startedAt = TimingClock.now();
        }
    }

    /**
     * Ends, at {@code now} (read by the caller before it looked this profile up; 0 when calls
     * are counted, not timed), the running call of {@code frame}. A mismatch (an exit without its entry, which enhanced code never
     * produces) is ignored rather than corrupting the tree.
     */
    void exit(int frame, long now) {
        if (beyondMaxDepth > 0) {
            beyondMaxDepth--;
            return;
        }
        CallNode node = tree.nodes[current];
        if (node.frame != frame || node.parent == null) {
            return;
        }
        node.calls++;
        if (timed) {
            CallNode.Timed timedNode = (CallNode.Timed) node;
            timedNode.inclusiveTime += now - timedNode.startedAt;
        }
        current = node.parent.id;
        depth--;
    }
}
