package org.tracingfacility.core;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/** Compiles Java sources with the running JDK's javac, as a user's build would. */
final class JavaFixtures {
    /** A copy of TF's meta-annotation, same package and name, so fixtures need no tf-runtime. */
    static final String METHOD_MONITOR_GROUP = "package org.tracingfacility.annotation;\n"
            + "import java.lang.annotation.*;\n"
            + "@Retention(RetentionPolicy.RUNTIME) @Target(ElementType.ANNOTATION_TYPE)\n"
            + "public @interface MethodMonitorGroup { Class<? extends Annotation>[] value() default {}; }\n";

    private JavaFixtures() {}

    /**
     * Compiles {@code sources} (binary class name → source text) with {@code --release 11}
     * into {@code classes}.
     */
    static void compile(Path workDir, Path classes, Map<String, String> sources) throws IOException {
        Path sourceRoot = workDir.resolve("src");
        List<Path> files = new ArrayList<>();
        for (Map.Entry<String, String> source : sources.entrySet()) {
            Path file = sourceRoot.resolve(source.getKey().replace('.', '/') + ".java");
            Files.createDirectories(file.getParent());
            Files.writeString(file, source.getValue(), StandardCharsets.UTF_8);
            files.add(file);
        }
        Files.createDirectories(classes);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        StringWriter diagnostics = new StringWriter();
        try (StandardJavaFileManager fileManager = javac.getStandardFileManager(null, null, StandardCharsets.UTF_8)) {
            boolean compiled = javac.getTask(diagnostics, fileManager, null,
                            List.of("--release", "11", "-d", classes.toString()), null,
                            fileManager.getJavaFileObjectsFromPaths(files))
                    .call();
            assertTrue(compiled, () -> "fixture did not compile:\n" + diagnostics);
        }
    }

    /** The IO group of the spec: {@code @IO} with subgroups {@code @IORead} and {@code @IOWrite}. */
    static Map<String, String> ioGroup() {
        return Map.of(
                "org.tracingfacility.annotation.MethodMonitorGroup", METHOD_MONITOR_GROUP,
                "com.example.IO", "package com.example;\n"
                        + "import java.lang.annotation.*;\n"
                        + "import org.tracingfacility.annotation.MethodMonitorGroup;\n"
                        + "@Retention(RetentionPolicy.RUNTIME)\n"
                        + "@MethodMonitorGroup({IORead.class, IOWrite.class})\n"
                        + "public @interface IO {}\n",
                "com.example.IORead", "package com.example;\n"
                        + "import java.lang.annotation.*;\n"
                        + "@Retention(RetentionPolicy.RUNTIME) public @interface IORead {}\n",
                "com.example.IOWrite", "package com.example;\n"
                        + "import java.lang.annotation.*;\n"
                        + "@Retention(RetentionPolicy.RUNTIME) public @interface IOWrite {}\n",
                "com.example.Plain", "package com.example;\n"
                        + "public @interface Plain {}\n");
    }
}
