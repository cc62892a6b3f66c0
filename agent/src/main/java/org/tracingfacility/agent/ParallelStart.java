package org.tracingfacility.agent;

import org.tracingfacility.runtime.support.TickCounterGrant;

/**
 * What the load-time agent's start does on a second thread while its own thread goes on
 * (machines have two cores at least): the application loader's list of TF groups read (the
 * first such read searches every module of the JDK), JFR's tick counter opened to the runtime
 * (the JDK's {@code redefineModule} links lambdas of its own on first use), and the timing
 * clock chosen. Each is some milliseconds of a traced JVM's start.
 *
 * <p>The agent waits for this thread ({@link #await}) before it adds its transformer. Until
 * then no class is traced, so nothing here runs traced code and needs no guard, and no
 * monitor (nor the clock, which waits too: {@link TickCounterGrant}) can be waiting for this
 * thread while holding what it needs.
 */
final class ParallelStart extends Thread {
    /** The runtime's clock, which chooses JFR's tick counter once it is opened. */
    private static final String TIMING_CLOCK = "org.tracingfacility.runtime.timing.TimingClock";

    private final BootstrapRuntime runtime;
    /** Why JFR's tick counter could not be opened, if it could not; read after the thread ended. */
    private volatile RuntimeException failure;

    private ParallelStart(BootstrapRuntime runtime) {
        super("tf-agent-start");
        setDaemon(true);
        this.runtime = runtime;
    }

    /** Starts the work beside the caller's. */
    static ParallelStart begin(BootstrapRuntime runtime) {
        ParallelStart start = new ParallelStart(runtime);
        TickCounterGrant.madeOn(start);
        start.start();
        return start;
    }

    @Override
    public void run() {
        LoaderGroups.of(ClassLoader.getSystemClassLoader());
        try {
            runtime.openJfrTicks();
        } catch (RuntimeException e) {
            failure = e;
            return;
        }
        try {
            // The clock's choice (method handles looked up, the frequency asked) made here too,
            // rather than at the first timed call.
            Class.forName(TIMING_CLOCK, true, null);
        } catch (ClassNotFoundException | LinkageError e) {
            // The clock then initializes at its first use, and chooses the same.
        }
    }

    /** Waits for the work to end; says in one line if the tick counter was not opened. */
    void await() {
        TickCounterGrant.await();
        if (failure != null) {
            AgentLog.line("JFR's tick counter was not opened to tf-runtime (timing reads System.nanoTime()): "
                    + failure);
        }
    }
}
