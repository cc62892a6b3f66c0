package org.tracingfacility.runtime.profile;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tracingfacility.runtime.timing.TimingClock;

/** Sums calling-context trees of several threads, context by context (same path of frames). */
final class TreeMerge {
    private final int frame;
    private long calls;
    private long inclusiveNanos;
    private final Map<Integer, TreeMerge> children = new LinkedHashMap<>();

    TreeMerge() {
        this(-1);
    }

    private TreeMerge(int frame) {
        this.frame = frame;
    }

    /** Adds a thread's subtree (read while its thread may still be adding to it). */
    void add(CallNode node) {
        calls += node.calls;
        inclusiveNanos += TimingClock.toNanos(node.inclusiveTime());
        for (CallNode c : node.children()) {
            children.computeIfAbsent(c.frame, TreeMerge::new).add(c);
        }
    }

    void add(TreeMerge other) {
        calls += other.calls;
        inclusiveNanos += other.inclusiveNanos;
        for (TreeMerge c : other.children.values()) {
            children.computeIfAbsent(c.frame, TreeMerge::new).add(c);
        }
    }

    /**
     * The immutable tree, the root named {@code "all"}, frames named by {@code frames}; the
     * heaviest context first: by inclusive time when {@code timed}, else by calls.
     */
    CallTree toTree(FrameTable frames, boolean timed) {
        List<CallTree> kids = new ArrayList<>(children.size());
        long childTime = 0;
        for (TreeMerge c : children.values()) {
            CallTree tree = c.toTree(frames, timed);
            childTime += tree.inclusiveNanos();
            kids.add(tree);
        }
        kids.sort(Comparator.comparingLong(timed ? CallTree::inclusiveNanos : CallTree::inclusiveCalls).reversed());
        if (frame < 0) {
            return new CallTree("all", timed, 0, childTime, 0, kids);
        }
        return new CallTree(frames.name(frame), timed, calls, inclusiveNanos,
                Math.max(0, inclusiveNanos - childTime), kids);
    }
}
