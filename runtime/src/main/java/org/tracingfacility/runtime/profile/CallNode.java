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
 *
 * <p>The children array is a hash table by frame (open addressing, at most half full): a
 * method that calls many others (a compiler's, say) finds each callee's context in a probe or
 * two instead of a scan of all of them, on every call.
 *
 * <p>A node of a counting tree ({@link ProfileFactory#countingCalls()}) has no clock fields:
 * {@link Timed} adds them. The whole JDK makes a million contexts, and a call's cost there is
 * mostly whether its context is in the cache: 48 bytes a node instead of 64.
 */
class CallNode {
    private static final CallNode[] NONE = new CallNode[0];
    /** The first table a node with children gets, a power of two. */
    private static final int FIRST_TABLE = 4;

    /** The frame of this context, or -1 for a thread's root. */
    final int frame;
    final CallNode parent;
    /** The children by {@link #home} of their frame, null where none is; NONE while there is none. */
    private volatile CallNode[] children = NONE;
    /** How many children there are. */
    private int childCount;
    /** The child found last: a loop calling one method finds it without a scan. */
    private CallNode lastChild;

    long calls;
    /** The number of this context in its tree ({@link TreeIndex}), once made. */
    int id = -1;

    CallNode(int frame, CallNode parent) {
        this.frame = frame;
        this.parent = parent;
    }

    /** A thread's root: of a tree that times calls, or of one that counts them only. */
    static CallNode root(boolean timed) {
        return timed ? new Timed(-1, null) : new CallNode(-1, null);
    }

    /** A new child context of {@code childFrame}, of this node's kind. */
    CallNode newChild(int childFrame) {
        return new CallNode(childFrame, this);
    }

    /** Time spent in this context, in {@link TimingClock}'s unit; 0 in a counting tree. */
    long inclusiveTime() {
        return 0;
    }

    /**
     * The child context of {@code childFrame}, created on first use (the only allocation) and
     * numbered in {@code index}; null when it cannot be created now (no slot free to mark the
     * thread at work).
     */
    CallNode child(int childFrame, TreeIndex index) {
        CallNode last = lastChild;
        if (last != null && last.frame == childFrame) {
            return last;
        }
        CallNode[] table = children;
        int mask = table.length - 1;
        for (int i = home(childFrame, mask); mask >= 0; i = (i + 1) & mask) {
            CallNode c = table[i];
            if (c == null) {
                break;
            }
            if (c.frame == childFrame) {
                lastChild = c;
                return c;
            }
        }
        return created(childFrame, table, index);
    }

    /** Where a frame's search starts in a table of {@code mask + 1} slots. */
    private static int home(int frame, int mask) {
        return (frame * 0x9E3779B9 >>> 16) & mask; // frames are dense integers: spread them
    }

    /**
     * A new child context, at work ({@link ThreadsAtWork}): {@code Arrays.copyOf} is JDK code
     * the agent may trace, and {@code profile} is handed out without the mark around its
     * calls ({@link ProfileMonitor}). Null when no slot is free to mark the thread at work.
     */
    private CallNode created(int childFrame, CallNode[] table, TreeIndex index) {
        if (!ThreadsAtWork.enter()) {
            return null;
        }
        try {
            CallNode created = newChild(childFrame);
            index.add(created);
            CallNode[] next = 2 * (childCount + 1) > table.length
                    ? rehashed(Math.max(FIRST_TABLE, 2 * table.length), table)
                    : Arrays.copyOf(table, table.length);
            put(next, created);
            childCount++;
            children = next; // a new table each time: readers never see one half written
            lastChild = created;
            return created;
        } finally {
            ThreadsAtWork.leave();
        }
    }

    private static CallNode[] rehashed(int size, CallNode[] table) {
        CallNode[] grown = new CallNode[size];
        for (CallNode c : table) {
            if (c != null) {
                put(grown, c);
            }
        }
        return grown;
    }

    private static void put(CallNode[] table, CallNode node) {
        int mask = table.length - 1;
        int i = home(node.frame, mask);
        while (table[i] != null) {
            i = (i + 1) & mask;
        }
        table[i] = node;
    }

    /** The child contexts, in no particular order. */
    CallNode[] children() {
        CallNode[] table = children;
        CallNode[] all = new CallNode[countOf(table)];
        int n = 0;
        for (CallNode c : table) {
            if (c != null) {
                all[n++] = c;
            }
        }
        return all;
    }

    private static int countOf(CallNode[] table) {
        int n = 0;
        for (CallNode c : table) {
            if (c != null) {
                n++;
            }
        }
        return n;
    }

    /** Zeroes the counters of this subtree; the contexts stay, so running calls still find them. */
    void reset() {
        calls = 0;
        for (CallNode c : children) {
            if (c != null) {
                c.reset();
            }
        }
    }

    /** A context of a tree that times calls. */
    static final class Timed extends CallNode {
        /** In {@link TimingClock}'s unit; a report converts it. */
        long inclusiveTime;
        /**
         * When the running invocation of this context started. A context is entered at most
         * once at a time on its thread (a recursive call is a child context), so one field
         * suffices.
         */
        long startedAt;

        Timed(int frame, CallNode parent) {
            super(frame, parent);
        }

        @Override
        CallNode newChild(int childFrame) {
            return new Timed(childFrame, this);
        }

        @Override
        long inclusiveTime() {
            return inclusiveTime;
        }

        @Override
        void reset() {
            inclusiveTime = 0;
            super.reset();
        }
    }
}
