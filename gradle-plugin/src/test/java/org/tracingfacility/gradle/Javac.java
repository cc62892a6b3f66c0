package org.tracingfacility.gradle;

import java.io.File;
import java.io.IOException;
import java.io.ByteArrayOutputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.tracingfacility.annotation.MethodMonitorGroup;

/** Compiles test fixtures with the real javac, against tf-runtime's annotations. */
final class Javac {
    private Javac() {}

    /** Where tf-runtime's classes are: a jar or a class directory. */
    static File runtimeLocation() {
        try {
            return new File(MethodMonitorGroup.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Compiles {@code sources} (path relative to the source root → text) into {@code classDir}. */
    static void compile(Path workDir, Map<String, String> sources, Path classDir) throws IOException {
        Path sourceRoot = Files.createDirectories(workDir.resolve("fixture-src"));
        List<String> arguments = new ArrayList<>(List.of(
                "--release", "11", "-d", classDir.toString(), "-cp", runtimeLocation().getPath()));
        for (Map.Entry<String, String> source : sources.entrySet()) {
            Path file = sourceRoot.resolve(source.getKey());
            Files.createDirectories(file.getParent());
            Files.writeString(file, source.getValue());
            arguments.add(file.toString());
        }
        Files.createDirectories(classDir);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
        int status = javac.run(null, diagnostics, diagnostics, arguments.toArray(new String[0]));
        if (status != 0) {
            throw new IllegalStateException("javac failed (" + status + "): " + diagnostics);
        }
    }
}
