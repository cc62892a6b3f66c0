package org.tracingfacility.runtime.profile;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import org.tracingfacility.runtime.MethodMonitor;
import org.tracingfacility.runtime.MethodMonitorFactory;
import org.tracingfacility.runtime.MethodMonitorRegistry;

/**
 * Calling-context profiles of monitored methods: per thread, the tree of monitored calls
 * (which method called which, through which path), with calls, inclusive and exclusive time
 * per context, in the manner of the calling-context trees of Binder, Hulaas and Moret
 * (FERRARI). {@link #profile()} merges the threads' trees; {@link #write} exports folded stacks
 * ({@code flamegraph.pl}, speedscope) or a self-contained HTML flame graph.
 *
 * <p>Each thread writes only its own tree, without synchronization. A call allocates only the
 * first time its context (this method, reached through this path) is seen.
 */
public final class ProfileFactory implements MethodMonitorFactory {
    /** Tells apart the temporary files of writes running at once in this process. */
    private static final AtomicLong TEMPORARY_NAMES = new AtomicLong();

    private final FrameTable frames = new FrameTable();
    private final List<ThreadProfile> threads = new ArrayList<>();
    /** The trees of threads that have ended, folded together so thread churn does not grow memory. */
    private TreeMerge ended = new TreeMerge();
    private final ThreadLocal<ThreadProfile> threadProfile = ThreadLocal.withInitial(this::newThreadProfile);

    @Override
    public MethodMonitor create(Class<?> cls) {
        List<String> names = MethodMonitorRegistry.methodNames(cls);
        int[] frameOf = new int[names.size()];
        for (int ident = 0; ident < frameOf.length; ident++) {
            frameOf[ident] = frames.id(cls, names.get(ident));
        }
        return new ProfileMonitor(cls, this, frameOf);
    }

    /** The profile so far, all threads merged. */
    public CallTree profile() {
        TreeMerge merged = new TreeMerge();
        synchronized (threads) {
            retireEndedThreads();
            merged.add(ended);
            for (ThreadProfile t : threads) {
                merged.add(t.root);
            }
        }
        return merged.toTree(frames);
    }

    /** {@link #profile()} as folded stacks. */
    public String folded() {
        return profile().folded();
    }

    /** {@link #profile()} as one HTML page showing a flame graph, needing no network. */
    public String html(String title) {
        return FlameGraphPage.render(profile(), title);
    }

    /**
     * Writes the profile to a file, replacing it whole: an HTML flame graph when the name ends
     * in {@code .html} or {@code .htm}, folded stacks otherwise ({@code .folded}, {@code .txt}).
     *
     * @return the file written, absolute
     */
    public Path write(Path file) throws IOException {
        Path target = file.toAbsolutePath();
        String lower = target.getFileName().toString().toLowerCase(Locale.ROOT);
        String text = lower.endsWith(".html") || lower.endsWith(".htm")
                ? html("TF profile, " + target.getFileName())
                : folded();
        Path parent = target.getParent();
        Files.createDirectories(parent);
        // Not Files.createTempFile, whose file is 0600: the profile is an output like any
        // other, readable as the umask allows.
        Path temporary = parent.resolve(".tf-profile-" + ProcessHandle.current().pid() + "-" + System.nanoTime()
                + "-" + TEMPORARY_NAMES.incrementAndGet() + ".tmp");
        try {
            Files.write(temporary, text.getBytes(StandardCharsets.UTF_8), StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE);
            Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(temporary);
        }
        return target;
    }

    /** Zeroes every count; calls running meanwhile may still be counted. */
    public void clear() {
        synchronized (threads) {
            ended = new TreeMerge();
            for (ThreadProfile t : threads) {
                t.root.reset();
            }
        }
    }

    @Override
    public String toString() {
        return "profile";
    }

    /** The calling thread's tree. */
    ThreadProfile threadProfile() {
        return threadProfile.get();
    }

    private ThreadProfile newThreadProfile() {
        ThreadProfile created = new ThreadProfile(Thread.currentThread());
        synchronized (threads) {
            retireEndedThreads();
            threads.add(created);
        }
        return created;
    }

    private void retireEndedThreads() {
        threads.removeIf(t -> {
            if (t.thread.isAlive()) {
                return false;
            }
            ended.add(t.root);
            return true;
        });
    }
}
