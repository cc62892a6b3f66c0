package org.tracingfacility.agent;

import org.tracingfacility.runtime.support.InternalsGrant;

/**
 * What the load-time agent's start does on a second thread while its own thread goes on
 * (machines have two cores at least): JDK internals opened to the runtime (thread ids, JFR's
 * tick counter: the JDK's {@code redefineModule} links lambdas of its own on first use), the
 * application loader's list of TF groups read (the first such read searches every module of
 * the JDK), and the timing clock chosen. Each is some milliseconds of a traced JVM's start.
 *
 * <p>The agent waits for this thread ({@link #await}) before it adds its transformer. Until
 * then no class is traced, so nothing here runs traced code and needs no guard. The thread
 * keys and the clock, which choose once, wait for the grant ({@link InternalsGrant}), which
 * comes first here and touches neither; what follows it may use them.
 */
final class ParallelStart extends Thread {
    /** The runtime's clock, which chooses JFR's tick counter once it is opened. */
    private static final String TIMING_CLOCK = "org.tracingfacility.runtime.timing.TimingClock";

    private final BootstrapRuntime runtime;
    /** Why the internals could not be opened, if they could not; read after the thread ended. */
    private volatile RuntimeException failure;

    private ParallelStart(BootstrapRuntime runtime) {
        super("tf-agent-start");
        setDaemon(true);
        this.runtime = runtime;
    }

    /** Starts the work beside the caller's. */
    static ParallelStart begin(BootstrapRuntime runtime) {
        ParallelStart start = new ParallelStart(runtime);
        InternalsGrant.madeOn(start);
        try {
            start.start();
        } catch (RuntimeException | Error e) { // no thread: nobody may wait for its grant
            InternalsGrant.made();
            throw e;
        }
        return start;
    }

    @Override
    public void run() {
        try {
            runtime.openInternals();
        } catch (RuntimeException e) {
            failure = e;
        } finally {
            InternalsGrant.made();
        }
        LoaderGroups.of(ClassLoader.getSystemClassLoader());
        try {
            // The clock's choice (method handles looked up, the frequency asked) made here too,
            // rather than at the first timed call.
            Class.forName(TIMING_CLOCK, true, null);
        } catch (ClassNotFoundException | LinkageError e) {
            // The clock then initializes at its first use, and chooses the same.
        }
    }

    /** Waits for the work to end; says in one line if the internals were not opened. */
    void await() {
        boolean interrupted = false;
        while (isAlive()) {
            try {
                join();
            } catch (InterruptedException e) {
                interrupted = true; // kept for the caller; the work is a matter of milliseconds
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (failure != null) {
            AgentLog.line("JDK internals were not opened to tf-runtime (timing reads System.nanoTime(), "
                    + "threads are told apart by identity hash): " + failure);
        }
    }
}
