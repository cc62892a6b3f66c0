package org.tracingfacility.runtime.profile;

import java.io.IOException;
import java.io.Writer;
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
import org.tracingfacility.runtime.support.ThreadKeys;
import org.tracingfacility.runtime.support.ThreadsAtWork;
import org.tracingfacility.runtime.timing.TimingClock;

/**
 * Calling-context profiles of monitored methods: per thread, the tree of monitored calls
 * (which method called which, through which path), with calls, inclusive and exclusive time
 * per context, in the manner of the calling-context trees of Binder, Hulaas and Moret
 * (FERRARI). {@link #profile()} merges the threads' trees; {@link #write} exports folded stacks
 * ({@code flamegraph.pl}, speedscope) or a self-contained HTML flame graph.
 *
 * <p>{@link #countingCalls()} makes a factory whose trees count calls only, FERRARI's own
 * metric: no clock is read, which is most of what a timed call costs on a machine whose clock
 * is slow, and what decides the cost of profiling the whole JDK, where calls of tiny methods
 * dominate.
 *
 * <p>Each thread writes only its own tree, without synchronization. A call allocates only the
 * first time its context (this method, reached through this path) is seen.
 */
public final class ProfileFactory implements MethodMonitorFactory {
    /** Tells apart the temporary files of writes running at once in this process. */
    private static final AtomicLong TEMPORARY_NAMES = new AtomicLong();

    /** Claim slots, a power of two: a thread whose slot another holds takes the slow way. */
    private static final int CLAIMS = 64;

    /** Whether calls are timed, or only counted. */
    private final boolean timed;
    private final FrameTable frames = new FrameTable();
    private final List<ThreadProfile> threads = new ArrayList<>();
    /** The trees of threads that have ended, folded together so thread churn does not grow memory. */
    private TreeMerge ended = new TreeMerge();
    private final ThreadLocal<ThreadProfile> threadProfile = ThreadLocal.withInitial(this::newThreadProfile);
    /**
     * The threads' profiles by slot ({@code ThreadKeys.current() & (CLAIMS - 1)}), each
     * the profile of the first thread to use the slot: that thread finds its profile with a
     * compare of {@code Thread.currentThread()} instead of the {@code ThreadLocal} (JDK code,
     * which would need the per-thread mark around every call). Read and written without
     * synchronization: a thread takes a profile for its own only when the profile's (final)
     * thread is itself, so a stale or racing value just means the slow way.
     */
    private final ThreadProfile[] claims = new ThreadProfile[CLAIMS];

    /** A factory whose trees time calls: calls, inclusive and exclusive time per context. */
    public ProfileFactory() {
        this(true);
    }

    private ProfileFactory(boolean timed) {
        this.timed = timed;
    }

    /** A factory whose trees count calls per context, and read no clock. */
    public static ProfileFactory countingCalls() {
        return new ProfileFactory(false);
    }

    /** Whether this factory's trees time calls (else they count them only). */
    public boolean timed() {
        return timed;
    }

    @Override
    public MethodMonitor create(Class<?> cls) {
        List<String> names = MethodMonitorRegistry.methodNames(cls);
        int[] frameOf = new int[names.size()];
        for (int ident = 0; ident < frameOf.length; ident++) {
            frameOf[ident] = frames.id(cls, names.get(ident));
        }
        if (timed) {
            // Initialized here, at work (the registry creates monitors so), not first inside a
            // traced method: its initialization runs JDK code.
            TimingClock.now();
        }
        return new ProfileMonitor(cls, this, frameOf, timed);
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
        return merged.toTree(frames, timed);
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
        boolean html = lower.endsWith(".html") || lower.endsWith(".htm");
        CallTree tree = profile();
        Path parent = target.getParent();
        Files.createDirectories(parent);
        // Not Files.createTempFile, whose file is 0600: the profile is an output like any
        // other, readable as the umask allows.
        Path temporary = parent.resolve(".tf-profile-" + ProcessHandle.current().pid() + "-" + System.nanoTime()
                + "-" + TEMPORARY_NAMES.incrementAndGet() + ".tmp");
        try {
            try (Writer out = Files.newBufferedWriter(temporary, StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE)) {
                if (html) {
                    out.write(FlameGraphPage.render(tree, "TF profile, " + target.getFileName()));
                } else {
                    tree.writeFolded(out); // streamed: a whole-JDK profile's stacks exceed one string
                }
            }
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
        return timed ? "profile" : "calls";
    }

    /**
     * The calling thread's tree: from its claim, without a {@code ThreadLocal} look-up; null
     * when the thread has none and cannot be marked at work (no slot free).
     */
    ThreadProfile threadProfile() {
        Thread current = Thread.currentThread();
        ThreadProfile claim = claims[slot()];
        return claim != null && claim.thread == current ? claim : unclaimed(current, claim);
    }

    /**
     * The tree of a thread without a claim, from the {@code ThreadLocal}, at work (it is JDK
     * code, and so is what creating a tree runs); the thread claims its slot if nobody has,
     * or the thread there has ended and its tree was folded away. Null when no slot is free
     * to mark the thread at work: the event is dropped.
     */
    private ThreadProfile unclaimed(Thread current, ThreadProfile claim) {
        if (!ThreadsAtWork.enter()) {
            return null;
        }
        try {
            ThreadProfile mine = threadProfile.get();
            if (claim == null || claim.retired) {
                claims[slot()] = mine;
            }
            return mine;
        } finally {
            ThreadsAtWork.leave();
        }
    }

    private static int slot() {
        return ThreadKeys.current() & (CLAIMS - 1);
    }

    /**
     * A new thread's profile: the tree of a thread that has ended, when there is one, which the
     * new thread goes on adding to (the merged profile is the same, and a pool's new thread
     * finds the contexts its predecessor made); else a tree of its own. Folding an ended tree
     * into another instead costs a walk of it, a million contexts for a thread that compiled
     * with javac under a whole-JDK profile, at every new thread.
     */
    private ThreadProfile newThreadProfile() {
        Thread current = Thread.currentThread();
        synchronized (threads) {
            ThreadProfile ended = takeEndedThread();
            ThreadProfile created = ended == null
                    ? new ThreadProfile(current, timed, new CallNode(-1, null))
                    : new ThreadProfile(current, timed, ended.root);
            threads.add(created);
            return created;
        }
    }

    /** A profile of a thread that has ended, retired and out of the list; or null. */
    private ThreadProfile takeEndedThread() {
        for (int i = 0; i < threads.size(); i++) {
            ThreadProfile t = threads.get(i);
            if (!t.thread.isAlive()) { // the thread's last writes happen-before this answer
                threads.remove(i);
                t.retired = true;
                return t;
            }
        }
        return null;
    }

    private void retireEndedThreads() {
        threads.removeIf(t -> {
            if (t.thread.isAlive()) {
                return false;
            }
            ended.add(t.root);
            t.retired = true;
            return true;
        });
    }
}
