package org.tracingfacility.runtime.profile;

import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Writes the process-wide profile (the factory {@code -Dtf.monitor=Group=profile} names) when
 * the JVM exits, to the file {@code -Dtf.profile.output} names: HTML for {@code .html}, folded
 * stacks otherwise; by default {@value #DEFAULT_OUTPUT} in the working directory. Nothing is
 * written when nothing was profiled. A failure is reported in one line on standard error.
 */
public final class ProfileAtExit {
    public static final String OUTPUT_PROPERTY = "tf.profile.output";
    public static final String DEFAULT_OUTPUT = "tf-profile.html";

    private ProfileAtExit() {
    }

    /** A factory that writes its profile at exit to the file of {@code -Dtf.profile.output}. */
    public static ProfileFactory processWide() {
        ProfileFactory factory = new ProfileFactory();
        Path output = Paths.get(System.getProperty(OUTPUT_PROPERTY, DEFAULT_OUTPUT));
        try {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> write(factory, output), "tf-profile-at-exit"));
        } catch (IllegalStateException | SecurityException e) {
            System.err.println("TF: the profile will not be written at exit: " + e);
        }
        return factory;
    }

    private static void write(ProfileFactory factory, Path output) {
        try {
            if (factory.profile().children().stream().anyMatch(c -> c.calls() > 0)) {
                Path written = factory.write(output);
                System.err.println("TF: profile written to " + written);
            }
        } catch (IOException | RuntimeException e) {
            System.err.println("TF: profile not written to " + output.toAbsolutePath() + ": " + e);
        }
    }
}
