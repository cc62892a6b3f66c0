package org.tracingfacility.runtime;

import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.tracingfacility.runtime.profile.ProfileFactory;
import org.tracingfacility.runtime.support.ExitWait;
import org.tracingfacility.runtime.support.ThreadsAtWork;

/**
 * Writes the process-wide profile (the factory {@code -Dtf.monitor=Group=profile} names) when
 * the JVM exits, to the file {@code -Dtf.profile.output} names: HTML for {@code .html}, folded
 * stacks otherwise; by default {@value #DEFAULT_OUTPUT} in the working directory. The
 * process-wide count of calls ({@code calls}) likewise, to {@code -Dtf.calls.output}, by default
 * {@value #DEFAULT_CALLS_OUTPUT}. Nothing is written when nothing was profiled. A failure is reported in one line on standard error, and
 * exit waits for the file at most {@code -Dtf.exit.wait} ms (5 s) (a stuck file system must not
 * hold the JVM).
 */
final class ProfileAtExit {
    static final String OUTPUT_PROPERTY = "tf.profile.output";
    static final String DEFAULT_OUTPUT = "tf-profile.html";
    static final String CALLS_OUTPUT_PROPERTY = "tf.calls.output";
    static final String DEFAULT_CALLS_OUTPUT = "tf-calls.html";

    private ProfileAtExit() {
    }

    /** A timing factory that writes its profile at exit to the file of {@code -Dtf.profile.output}. */
    static ProfileFactory processWide() {
        return writtenAtExit(new ProfileFactory(), System.getProperty(OUTPUT_PROPERTY, DEFAULT_OUTPUT));
    }

    /** A counting factory that writes its profile at exit to the file of {@code -Dtf.calls.output}. */
    static ProfileFactory processWideCalls() {
        return writtenAtExit(ProfileFactory.countingCalls(),
                System.getProperty(CALLS_OUTPUT_PROPERTY, DEFAULT_CALLS_OUTPUT));
    }

    private static ProfileFactory writtenAtExit(ProfileFactory factory, String file) {
        Path output = Paths.get(file);
        try {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> writeWithin(factory, output), "TF profile at exit"));
        } catch (IllegalStateException | SecurityException e) {
            System.err.println("TF: the " + what(factory) + " will not be written at exit: " + e);
        }
        return factory;
    }

    /** The shutdown hook: writes on a daemon thread and waits for it a bounded time; never throws. */
    private static void writeWithin(ProfileFactory factory, Path output) {
        // TF's own work, on threads of its own: no traced JDK class reports it.
        ThreadsAtWork.enter();
        try {
            Thread writer = new Thread(() -> write(factory, output), "TF profile writer");
            writer.setDaemon(true);
            writer.start();
            writer.join(ExitWait.millis());
            if (writer.isAlive()) {
                System.err.println("TF: the " + what(factory) + " was not written to " + output.toAbsolutePath() + " within "
                        + ExitWait.millis() + " ms; exiting without it (-D" + ExitWait.PROPERTY
                        + "=<ms> waits longer)");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException | Error e) {
            System.err.println("TF: the " + what(factory) + " could not be written at exit: " + e);
        } finally {
            ThreadsAtWork.leave();
        }
    }

    private static void write(ProfileFactory factory, Path output) {
        ThreadsAtWork.enter();
        try {
            if (factory.profile().children().stream().anyMatch(c -> c.calls() > 0)) {
                Path written = factory.write(output);
                System.err.println("TF: " + what(factory) + " written to " + written);
            }
        } catch (IOException | RuntimeException | OutOfMemoryError e) {
            System.err.println("TF: " + what(factory) + " not written to " + output.toAbsolutePath() + ": " + e);
        } finally {
            ThreadsAtWork.leave();
        }
    }

    /** What the factory's file holds, as messages name it. */
    private static String what(ProfileFactory factory) {
        return factory.timed() ? "profile" : "profile of calls";
    }
}
