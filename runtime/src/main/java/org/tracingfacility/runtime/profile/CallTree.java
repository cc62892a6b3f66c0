package org.tracingfacility.runtime.profile;

import java.io.IOException;
import java.util.List;

/**
 * A calling-context tree merged across threads: each node is a monitored method reached
 * through the path of its ancestors, with its calls, and the time spent in it including
 * (inclusive) and excluding (exclusive) the monitored calls it made. The root stands for the
 * whole profile: no calls, its inclusive time the sum of the top-level calls. A tree of
 * {@link ProfileFactory#countingCalls()} has calls only, its times zero ({@link #timed()}).
 *
 * <p>A call still running when the profile was taken is not counted yet, though the calls it
 * finished are; exclusive time never goes below zero on that account.
 */
public final class CallTree {
    private final String name;
    private final boolean timed;
    private final long calls;
    private final long inclusiveCalls;
    private final long inclusiveNanos;
    private final long exclusiveNanos;
    private final List<CallTree> children;

    CallTree(String name, boolean timed, long calls, long inclusiveNanos, long exclusiveNanos,
            List<CallTree> children) {
        this.name = name;
        this.timed = timed;
        this.calls = calls;
        this.inclusiveNanos = inclusiveNanos;
        this.exclusiveNanos = exclusiveNanos;
        this.children = List.copyOf(children);
        long below = 0;
        for (CallTree c : children) {
            below += c.inclusiveCalls;
        }
        this.inclusiveCalls = calls + below;
    }

    /** The method as {@code class.tracingName}; {@code "all"} for the root. */
    public String name() {
        return name;
    }

    /** Whether calls were timed; else they were counted only, and every time is zero. */
    public boolean timed() {
        return timed;
    }

    /** How many times this path was entered. */
    public long calls() {
        return calls;
    }

    /** The calls of this path and of every path below it. */
    public long inclusiveCalls() {
        return inclusiveCalls;
    }

    /** Time spent in this path, the calls below it included, in nanoseconds. */
    public long inclusiveNanos() {
        return inclusiveNanos;
    }

    /** Time spent in this path itself, the calls below it left out, in nanoseconds. */
    public long exclusiveNanos() {
        return exclusiveNanos;
    }

    /** The contexts this one called, the most inclusive time (calls, when not timed) first. */
    public List<CallTree> children() {
        return children;
    }

    /** The child of a name, or null. */
    public CallTree child(String childName) {
        for (CallTree c : children) {
            if (c.name.equals(childName)) {
                return c;
            }
        }
        return null;
    }

    /**
     * The tree as folded stacks, the format of {@code flamegraph.pl} and speedscope: one line
     * per context with its own weight, {@code outer;inner;innermost weight}, the root left out.
     * The weight is exclusive time in nanoseconds, or the context's calls when calls were not
     * timed (a flame graph's widths then count calls, those below included).
     */
    public String folded() {
        StringBuilder out = new StringBuilder();
        try {
            writeFolded(out);
        } catch (IOException e) {
            throw new AssertionError(e); // a StringBuilder does not fail
        }
        return out.toString();
    }

    /**
     * {@link #folded()} written to {@code out} line by line: the folded stacks of a whole-JDK
     * profile repeat each context's path and exceed what one string can hold.
     */
    public void writeFolded(Appendable out) throws IOException {
        StringBuilder path = new StringBuilder();
        for (CallTree c : children) {
            c.appendFolded(path, out);
        }
    }

    private void appendFolded(StringBuilder path, Appendable out) throws IOException {
        int length = path.length();
        if (length > 0) {
            path.append(';');
        }
        // ';' separates frames (readers split the count off at the last space).
        path.append(name.replace(';', ':'));
        long weight = timed ? exclusiveNanos : calls;
        if (weight > 0) {
            out.append(path).append(' ').append(Long.toString(weight)).append('\n');
        }
        for (CallTree c : children) {
            c.appendFolded(path, out);
        }
        path.setLength(length);
    }

    @Override
    public String toString() {
        return timed
                ? name + " (" + calls + " calls, " + inclusiveNanos + " ns inclusive, " + exclusiveNanos
                        + " ns exclusive, " + children.size() + " children)"
                : name + " (" + calls + " calls, " + inclusiveCalls + " with those below, " + children.size()
                        + " children)";
    }
}
