package org.tracingfacility.runtime.support;

/**
 * The threads now running monitoring code: TF's own (the agent enhancing a class, the
 * registry, the reports printed at exit) or a monitor's, with everything that code calls. A
 * method the agent traced, entered on such a thread, reaches no monitor ({@link
 * GuardedSites#monitor} answers null), so monitoring code never runs inside itself, whichever
 * JDK classes are traced, and nothing TF does shows up in what a monitor records.
 *
 * <p>It is asked before anything else on that path, so it runs no code a filter could trace:
 * the thread's key ({@link ThreadKeys}) is read by intrinsics without bytecode, and the rest is
 * arithmetic on this class's arrays. (A {@code ThreadLocal} would run
 * {@code java.lang.ThreadLocal}'s own code first, which a filter may trace.)
 *
 * <p>A thread is recorded under its key in one of {@value #PROBES} slots from
 * {@code hash & MASK}, with how deep it is in; a slot is written only by the thread whose key
 * it holds, apart from claiming a free one. Two threads whose claims race on one free slot may
 * both take it: the monitoring code of one of them may then reach a monitor once, one level
 * deep, and that level records its thread afresh, so it never goes deeper. When every probe
 * slot is taken by other threads, {@link #enterIfIdle()} answers false: that event is dropped.
 */
public final class ThreadsAtWork {
    private static final int SIZE = 1 << 12;
    private static final int MASK = SIZE - 1;
    private static final int PROBES = 8;

    /** A recorded thread's key ({@link ThreadKeys}, the top bit set: never 0), or 0. */
    private static final int[] KEYS = new int[SIZE];
    /** How many times the thread of the same slot entered and has not left. */
    private static final int[] DEPTHS = new int[SIZE];
    /**
     * How many recorded threads of each home slot ({@code hash & MASK}) sit in a later slot,
     * their home having been taken. While none does, a thread finds itself at its home slot or
     * nowhere: one load, not {@value #PROBES}, on the path every traced call takes. (A race on
     * the count, between threads sharing a home, costs what a race on a claim costs.)
     */
    private static final int[] SPILLED = new int[SIZE];

    private ThreadsAtWork() {
    }

    /** Whether the current thread is running monitoring code. */
    public static boolean isAtWork() {
        int key = key();
        int home = key & MASK;
        int there = KEYS[home];
        if (there == key) {
            return true;
        }
        if (there == 0 && SPILLED[home] == 0) {
            return false;
        }
        return slotOf(key) >= 0;
    }

    /**
     * Records the current thread at work unless it is already; the caller then must
     * {@link #leave()} once. False when it was at work already (or no slot was free): the
     * caller then must not reach a monitor, nor leave.
     */
    public static boolean enterIfIdle() {
        int key = key();
        int home = key & MASK;
        int there = KEYS[home];
        if (there == key) {
            return false;
        }
        if (claimedHome(key, home, there)) {
            return true;
        }
        if (slotOf(key) >= 0) {
            return false;
        }
        return claim(key);
    }

    /**
     * Records the current thread at work, one level deeper if it is already; the caller must
     * {@link #leave()} once when this answers true. False only when no slot was free.
     */
    public static boolean enter() {
        int key = key();
        int home = key & MASK;
        int there = KEYS[home];
        if (there == key) {
            DEPTHS[home]++;
            return true;
        }
        if (claimedHome(key, home, there)) {
            return true;
        }
        int slot = slotOf(key);
        if (slot >= 0) {
            DEPTHS[slot]++;
            return true;
        }
        return claim(key);
    }

    /** One level out of monitoring code; the thread is idle again at the outermost. */
    public static void leave() {
        int key = key();
        int home = key & MASK;
        int slot = KEYS[home] == key ? home : slotOf(key);
        if (slot >= 0 && --DEPTHS[slot] <= 0) {
            DEPTHS[slot] = 0;
            KEYS[slot] = 0;
            if (slot != home) {
                SPILLED[home]--;
            }
        }
    }

    /**
     * Records the thread at its home slot when that is free ({@code there}: what it holds) and
     * no thread of that home sits further on, where this one might be recorded already.
     */
    private static boolean claimedHome(int key, int home, int there) {
        if (there == 0 && SPILLED[home] == 0) {
            KEYS[home] = key;
            DEPTHS[home] = 1;
            return true;
        }
        return false;
    }

    private static int key() {
        return ThreadKeys.current() | Integer.MIN_VALUE;
    }

    private static int slotOf(int key) {
        for (int probe = 0, slot = key & MASK; probe < PROBES; probe++, slot = (slot + 1) & MASK) {
            if (KEYS[slot] == key) {
                return slot;
            }
        }
        return -1;
    }

    private static boolean claim(int key) {
        int home = key & MASK;
        for (int probe = 0, slot = home; probe < PROBES; probe++, slot = (slot + 1) & MASK) {
            if (KEYS[slot] == 0) {
                KEYS[slot] = key;
                DEPTHS[slot] = 1;
                if (slot != home) {
                    SPILLED[home]++;
                }
                return true;
            }
        }
        return false;
    }
}
