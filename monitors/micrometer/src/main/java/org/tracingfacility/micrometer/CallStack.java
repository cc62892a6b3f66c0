package org.tracingfacility.micrometer;

import java.util.Arrays;

/**
 * One thread's running monitored calls (of one factory's monitors), innermost last: each
 * call's start time, and the exception reported in it, if any. Calls end in the reverse
 * order they start, on the thread that started them, so a stack is all the state needed.
 */
final class CallStack {
    private long[] starts = new long[16];
    private Throwable[] thrown = new Throwable[16];
    private int depth;

    void push(long start) {
        if (depth == starts.length) {
            starts = Arrays.copyOf(starts, depth * 2);
            thrown = Arrays.copyOf(thrown, depth * 2);
        }
        starts[depth] = start;
        thrown[depth] = null;
        depth++;
    }

    /** Notes the exception thrown in, or passing through, the innermost call. */
    void thrown(Throwable t) {
        if (depth > 0) {
            thrown[depth - 1] = t;
        }
    }

    boolean isEmpty() {
        return depth == 0;
    }

    /** The innermost call's start; then {@link #poppedThrown()} tells how it ended. */
    long pop() {
        depth--;
        return starts[depth];
    }

    /** The exception of the call {@link #pop()} just ended, or null; forgets it. */
    Throwable poppedThrown() {
        Throwable t = thrown[depth];
        thrown[depth] = null;
        return t;
    }
}
