package org.tracingfacility.runtime.profile;

/** One thread's calling-context tree, and where in it the thread is now. */
final class ThreadProfile {
    final Thread thread;
    final CallNode root = new CallNode(-1, null);
    /** The innermost running monitored call of the thread, or the root. */
    CallNode current = root;

    ThreadProfile(Thread thread) {
        this.thread = thread;
    }

    void enter(int frame) {
        CallNode node = current.child(frame);
        current = node;
        node.startedAt = System.nanoTime();
    }

    /**
     * Ends, at {@code now} (read by the caller before it looked this profile up), the running
     * call of {@code frame}. A mismatch (an exit without its entry, which
     * enhanced code never produces) is ignored rather than corrupting the tree.
     */
    void exit(int frame, long now) {
        CallNode node = current;
        if (node.frame != frame || node.parent == null) {
            return;
        }
        node.calls++;
        node.inclusiveNanos += now - node.startedAt;
        current = node.parent;
    }
}
