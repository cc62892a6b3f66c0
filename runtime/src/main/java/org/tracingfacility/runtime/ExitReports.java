package org.tracingfacility.runtime;

import java.io.PrintStream;
import org.tracingfacility.runtime.support.ExitWait;
import org.tracingfacility.runtime.support.ThreadsAtWork;

/**
 * Makes the built-in factories that keep their findings in memory visible when they are
 * chosen by name ({@code -Dtf.monitor} or the management bean), where no code of the user's
 * reads them: {@code timing} prints its table at exit, to standard error or to the file
 * {@code -Dtf.timing.output} names; {@code operationTracer} prints, when an exception is
 * thrown in a traced call, the calls it was thrown in, to standard error or to the file
 * {@code -Dtf.operationTracer.output} names.
 */
final class ExitReports {
    static final String TIMING_OUTPUT_PROPERTY = "tf.timing.output";
    static final String OPERATION_TRACER_OUTPUT_PROPERTY = "tf.operationTracer.output";

    // Under the class's lock, not atomics: an AtomicBoolean's first use builds a VarHandle,
    // milliseconds of a traced JVM's start.
    private static boolean timingArmed;
    private static boolean tracerArmed;

    private ExitReports() {
    }

    /** Arms the output of {@code factory} if it is one that has none of its own; once per kind. */
    static synchronized void chosenByName(MethodMonitorFactory factory) {
        if (factory == MethodMonitorFactoryDefaults.timing() && !timingArmed) {
            timingArmed = true;
            Thread hook = new Thread("TF timing table at exit") {
                @Override
                public void run() {
                    writeTimingTableWithin();
                }
            };
            try {
                Runtime.getRuntime().addShutdownHook(hook);
            } catch (IllegalStateException e) {
                // The JVM is already exiting: nothing ran that the table could show.
            }
        } else if (factory == MethodMonitorFactoryDefaults.operationTracer() && !tracerArmed) {
            tracerArmed = true;
            OperationTracer.reportExceptionsTo(new OutputProperty(OPERATION_TRACER_OUTPUT_PROPERTY).open());
        }
    }

    /**
     * The shutdown hook: writes the table on a daemon thread and waits for it a bounded time,
     * so that exit is never held up for long, and never throws.
     */
    private static void writeTimingTableWithin() {
        // TF's own work, on threads of its own: no traced JDK class reports it.
        ThreadsAtWork.enter();
        try {
            Thread writer = new Thread("TF timing table writer") {
                @Override
                public void run() {
                    writeTimingTable();
                }
            };
            writer.setDaemon(true);
            writer.start();
            writer.join(ExitWait.millis());
            if (writer.isAlive()) {
                System.err.println("TF: the timing table was not written within " + ExitWait.millis()
                        + " ms; exiting without it (-D" + ExitWait.PROPERTY + "=<ms> waits longer)");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException | Error e) {
            System.err.println("TF: the timing table could not be written at exit: " + e);
        } finally {
            ThreadsAtWork.leave();
        }
    }

    private static void writeTimingTable() {
        ThreadsAtWork.enter();
        try {
            String table = MethodMonitorFactoryDefaults.timing().report().toString();
            OutputProperty output = new OutputProperty(TIMING_OUTPUT_PROPERTY);
            PrintStream out = output.open();
            out.print(table);
            out.flush();
            if (out != System.err) {
                out.close();
                if (out.checkError()) {
                    System.err.println("TF: writing the timing table to " + output.file() + " failed; here it is:");
                    System.err.print(table);
                } else {
                    System.err.println("TF: timing table written to " + output.file());
                }
            }
        } catch (RuntimeException | Error e) {
            System.err.println("TF: the timing table could not be written at exit: " + e);
        } finally {
            ThreadsAtWork.leave();
        }
    }
}
