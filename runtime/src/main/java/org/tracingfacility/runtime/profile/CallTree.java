package org.tracingfacility.runtime.profile;

import java.util.List;

/**
 * A calling-context tree merged across threads: each node is a monitored method reached
 * through the path of its ancestors, with its calls, and the time spent in it including
 * (inclusive) and excluding (exclusive) the monitored calls it made. The root stands for the
 * whole profile: no calls, its inclusive time the sum of the top-level calls.
 *
 * <p>A call still running when the profile was taken is not counted yet, though the calls it
 * finished are; exclusive time never goes below zero on that account.
 */
public final class CallTree {
    private final String name;
    private final long calls;
    private final long inclusiveNanos;
    private final long exclusiveNanos;
    private final List<CallTree> children;

    CallTree(String name, long calls, long inclusiveNanos, long exclusiveNanos, List<CallTree> children) {
        this.name = name;
        this.calls = calls;
        this.inclusiveNanos = inclusiveNanos;
        this.exclusiveNanos = exclusiveNanos;
        this.children = List.copyOf(children);
    }

    /** The method as {@code class.tracingName}; {@code "all"} for the root. */
    public String name() {
        return name;
    }

    /** How many times this path was entered. */
    public long calls() {
        return calls;
    }

    /** Time spent in this path, the calls below it included, in nanoseconds. */
    public long inclusiveNanos() {
        return inclusiveNanos;
    }

    /** Time spent in this path itself, the calls below it left out, in nanoseconds. */
    public long exclusiveNanos() {
        return exclusiveNanos;
    }

    /** The contexts this one called, the most inclusive time first. */
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
     * per context with exclusive time, {@code outer;inner;innermost nanoseconds}, the root left out.
     */
    public String folded() {
        StringBuilder out = new StringBuilder();
        for (CallTree c : children) {
            c.appendFolded(new StringBuilder(), out);
        }
        return out.toString();
    }

    private void appendFolded(StringBuilder path, StringBuilder out) {
        int length = path.length();
        if (length > 0) {
            path.append(';');
        }
        // ';' separates frames (readers split the count off at the last space).
        path.append(name.replace(';', ':'));
        if (exclusiveNanos > 0) {
            out.append(path).append(' ').append(exclusiveNanos).append('\n');
        }
        for (CallTree c : children) {
            c.appendFolded(path, out);
        }
        path.setLength(length);
    }

    @Override
    public String toString() {
        return name + " (" + calls + " calls, " + inclusiveNanos + " ns inclusive, " + exclusiveNanos
                + " ns exclusive, " + children.size() + " children)";
    }
}
