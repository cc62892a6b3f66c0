package org.tracingfacility.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What JDK 25 prints when a build loads TF: no {@code sun.misc.Unsafe} warning (TF's own
 * MessagePack reader and writer use none), and before the JDK's native-access warning, TF's one line saying where
 * the flag goes; with the flag, nothing at all.
 */
class QuietOnJdk25Test {
    @TempDir
    Path nativeDir;

    @TempDir
    Path classes;

    @Test
    void onlyTheNativeAccessWarningRemainsAndTfSaysWhereTheFlagGoes() throws Exception {
        List<String> err = run();
        assertEquals(List.of(NativeAccessNotice.LINE,
                "WARNING: A restricted method in java.lang.System has been called",
                "WARNING: java.lang.System::load has been called by org.tracingfacility.core.NativeLibrary in an"
                        + " unnamed module (" + NativeLibrary.class.getProtectionDomain().getCodeSource().getLocation()
                        + ")",
                "WARNING: Use --enable-native-access=ALL-UNNAMED to avoid a warning for callers in this module",
                "WARNING: Restricted methods will be blocked in a future release unless native access is enabled",
                "", ""), err); // the JDK's blank line after its warning, then the end of the last line
    }

    @Test
    void withTheFlagNothingIsPrinted() throws Exception {
        assertEquals(List.of(), run("--enable-native-access=ALL-UNNAMED"));
    }

    /** QuietOnJdk25Main on JDK 25; its standard error, line by line (its output is checked). */
    private List<String> run(String... jvmOptions) throws Exception {
        String home = System.getenv("TF_JDK25_HOME");
        Path java = Paths.get(home == null || home.isBlank() ? "/usr/lib/jvm/temurin-25-jdk-amd64" : home, "bin", "java");
        assumeTrue(Files.isExecutable(java), "no JDK 25 at " + java + " (TF_JDK25_HOME)");
        List<String> command = new ArrayList<>(List.of(java.toString()));
        command.addAll(List.of(jvmOptions));
        command.addAll(List.of("-Dtf.native.dir=" + nativeDir, "-cp", System.getProperty("java.class.path"),
                QuietOnJdk25Main.class.getName(), classes.toString()));
        Process process = new ProcessBuilder(command).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(true, process.waitFor(60, TimeUnit.SECONDS));
        assertEquals("enhanced\n", out, err);
        return err.isEmpty() ? List.of() : List.of(err.split("\n", -1));
    }
}
