package org.tracingfacility.runtime.support;

/**
 * A value that other threads see as soon as it is set. The enhancer adds one per TF
 * annotation to every enhanced class, holding the class's current {@link MethodMonitor};
 * the registry sets it.
 *
 * <p>Only class files older than version 51 (Java 7), which cannot use
 * {@code invokedynamic}, read it on every call; newer ones find their monitor through a
 * call site that the JIT can fold (see {@link EnhancedCodeSupport#linkMonitor}). A volatile
 * read gives the visibility that the original's synchronized accessors gave, at the cost of
 * a plain load on x86.
 *
 * @param <T> the type of the value
 */
public final class SynchronizedHolder<T> {
    private volatile T content;

    /** A holder with no content. */
    public SynchronizedHolder() {
    }

    /** A holder with the given content. */
    public SynchronizedHolder(T content) {
        this.content = content;
    }

    /** The current content, or null. */
    public T content() {
        return content;
    }

    /** Replaces the content. */
    public void content(T content) {
        this.content = content;
    }

    @Override
    public String toString() {
        return "SynchronizedHolder[" + content + "]";
    }
}
