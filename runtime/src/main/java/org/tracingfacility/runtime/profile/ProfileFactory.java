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

    /** Claim slots, a power of two. */
    private static final int CLAIMS = 256;
    /**
     * The slots a thread may claim, from its home on: a thread whose home a live thread holds
     * (thread ids wrap around the table as threads come and go, onto the slots of threads that
     * live on) claims the next free one instead of taking the slow way on every call.
     */
    private static final int PROBES = 8;

    /** Whether calls are timed, or only counted. */
    private final boolean timed;
    private final FrameTable frames = new FrameTable();
    private final List<ThreadProfile> threads = new ArrayList<>();
    /** The trees of threads that have ended, folded together so thread churn does not grow memory. */
    private TreeMerge ended = new TreeMerge();
    private final ThreadLocal<ThreadProfile> threadProfile = ThreadLocal.withInitial(this::newThreadProfile);
    /**
     * The threads' profiles by slot, each thread's at its home ({@code ThreadKeys.current()
     * & (CLAIMS - 1)}) or one of the {@value #PROBES} after it: a thread finds its profile with a
     * compare of {@code Thread.currentThread()} instead of the {@code ThreadLocal} (JDK code,
     * which would need the per-thread mark around every call). Read without synchronization,
     * written under the lock of {@link #threads}, and a slot passes to another thread only
     * once its profile has retired (its thread has ended): a live thread's claim stays its
     * own, which lets an exit find it by slot ({@link ProfileMonitor}).
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
        return monitor(cls, MethodMonitorRegistry.methodNames(cls));
    }

    /** The monitor of {@code cls}, whose methods' tracing names by identifier are {@code names}. */
    ProfileMonitor monitor(Class<?> cls, List<String> names) {
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
        int slot = claimedSlot(home());
        return slot >= 0 ? claims[slot] : unclaimed();
    }

    /** The claim slots, read by this factory's monitors from a thread's {@link #home()} on. */
    ThreadProfile[] claims() {
        return claims;
    }

    /** The slot of the calling thread's claim, searched from {@code home} on; -1 when it has none. */
    int claimedSlot(int home) {
        Thread current = Thread.currentThread();
        for (int probe = 0; probe < PROBES; probe++) {
            int slot = (home + probe) & (CLAIMS - 1);
            ThreadProfile claim = claims[slot];
            if (claim != null && claim.thread == current) {
                return slot;
            }
        }
        return -1;
    }

    /**
     * The tree of a thread without a claim, from the {@code ThreadLocal}, at work (it is JDK
     * code, and so is what creating a tree runs); the thread claims the first slot from its
     * home on that nobody holds, or whose thread has ended and retired. Null when no slot is
     * free to mark the thread at work: the event is dropped. For a thread whose claim was
     * searched for already ({@link #claimedSlot}), and not found.
     */
    ThreadProfile unclaimed() {
        if (!ThreadsAtWork.enter()) {
            return null;
        }
        try {
            ThreadProfile mine = threadProfile.get();
            int home = home();
            synchronized (threads) { // where profiles retire: a claim read here stays what it is
                for (int probe = 0; probe < PROBES; probe++) {
                    int slot = (home + probe) & (CLAIMS - 1);
                    ThreadProfile claim = claims[slot];
                    if (claim == null || claim.retired) {
                        claims[slot] = mine;
                        break;
                    }
                }
            }
            return mine;
        } finally {
            ThreadsAtWork.leave();
        }
    }

    /** Where the calling thread's claim is, or the search for it starts. */
    static int home() {
        return ThreadKeys.current() & (CLAIMS - 1);
    }

    /**
     * A new thread's profile: the tree of a thread that has ended, when there is one, which the
     * new thread goes on adding to (the merged profile is the same, and a pool's new thread
     * finds the contexts its predecessor made); else a tree of its own. Folding an ended tree
     * into another instead costs a walk of it, a million contexts for a thread that compiled
     * with javac under a whole-JDK profile, at every new thread.
     *
     * <p>The ended thread at the new thread's home slot goes first: it retires, and the new
     * thread claims the slot. Taking another would leave the slot to a dead thread's profile,
     * and the new thread to the slow way on every call.
     */
    private ThreadProfile newThreadProfile() {
        Thread current = Thread.currentThread();
        synchronized (threads) {
            ThreadProfile ended = takeEndedThread(claims[home()]);
            ThreadProfile created = ended == null
                    ? new ThreadProfile(current, timed, new TreeIndex(CallNode.root(timed)))
                    : new ThreadProfile(current, timed, ended.tree);
            threads.add(created);
            return created;
        }
    }

    /**
     * A profile of a thread that has ended, retired and out of the list, {@code preferred}
     * when it is one; or null.
     */
    private ThreadProfile takeEndedThread(ThreadProfile preferred) {
        int taken = preferred == null ? -1 : threads.indexOf(preferred);
        if (taken < 0 || preferred.thread.isAlive()) {
            taken = -1;
            for (int i = 0; i < threads.size() && taken < 0; i++) {
                if (!threads.get(i).thread.isAlive()) { // its last writes happen-before this answer
                    taken = i;
                }
            }
        }
        if (taken < 0) {
            return null;
        }
        ThreadProfile t = threads.remove(taken);
        t.retired = true;
        return t;
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
