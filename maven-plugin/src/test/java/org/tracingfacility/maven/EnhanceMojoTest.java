package org.tracingfacility.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.apache.maven.model.Dependency;
import org.apache.maven.plugin.MojoFailureException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the goal's code with the real native core over javac-compiled classes. */
class EnhanceMojoTest {
    private static final String BROKEN = "com/example/Broken.class";

    @TempDir
    Path work;

    private Path classes;
    private final RecordingLog log = new RecordingLog();
    private final EnhanceMojo mojo = new EnhanceMojo();

    @BeforeEach
    void compileAGroupWithASubgroup() throws IOException {
        classes = work.resolve("classes");
        compile(List.of(
                "package org.tracingfacility.annotation;\n"
                        + "public @interface MethodMonitorGroup { Class<?>[] value() default {}; }\n",
                "package com.example;\n"
                        + "@org.tracingfacility.annotation.MethodMonitorGroup({Db.class})\n"
                        + "public @interface Storage {}\n",
                "package com.example;\npublic @interface Db {}\n"));
        mojo.setLog(log);
        mojo.classesDirectory = classes.toFile();
        mojo.compileClasspath = List.of(classes.toString());
        mojo.cacheDirectory = work.resolve("tf-cache").toFile();
    }

    @Test
    void aSecondBuildFindsEverythingUpToDateInTheCacheAndRefreshesNothing() throws Exception {
        RecordingBuildContext context = new RecordingBuildContext(false, true);
        mojo.buildContext = context;

        mojo.execute();
        assertEquals(List.of(classes.resolve("META-INF/tf/tfannotations.properties").toFile()), context.refreshed);
        context.refreshed.clear();
        mojo.execute();

        assertEquals(List.of(), context.refreshed);
        assertTrue(log.at("info").get(1).contains("3 up to date in the cache"), log.at("info").toString());
        assertTrue(Files.isRegularFile(work.resolve("tf-cache/state")));
    }

    @Test
    void anIncrementalIdeBuildWithoutAChangedClassDoesNotCallTheCore() throws Exception {
        mojo.buildContext = new RecordingBuildContext(true, false);

        mojo.execute();

        assertEquals(List.of(), log.at("info"));
        assertFalse(Files.exists(classes.resolve("META-INF")));
    }

    @Test
    void aDamagedCacheIsAWarningAndTheBuildGoesOn() throws Exception {
        mojo.execute();
        Files.write(work.resolve("tf-cache/state"), new byte[] {42});

        mojo.execute();

        assertEquals(1, log.at("warn").size(), log.at("warn").toString());
        assertTrue(log.at("warn").get(0).contains("rebuilding"), log.at("warn").toString());
    }

    @Test
    void writesTheAnnotationListAndLogsTheSummary() throws Exception {
        mojo.execute();

        Properties list = annotationList();
        assertEquals("2", list.getProperty("org.tracingfacility.tf.annotations.size"));
        assertEquals("com.example.Db", list.getProperty("org.tracingfacility.tf.annotation.1"));
        assertEquals("com.example.Storage", list.getProperty("org.tracingfacility.tf.annotation.2"));
        assertTrue(log.at("info").stream().anyMatch(l -> l.startsWith("TF:")), log.at("info").toString());
        assertEquals(List.of(), log.at("error"));
    }

    @Test
    void atVerboseZeroTheInfoLogIsTheSummaryAlone() throws Exception {
        mojo.dryRun = true; // the core reports a dry run whatever the verbosity

        mojo.execute();

        assertEquals(1, log.at("info").size(), log.at("info").toString());
        assertFalse(log.at("debug").isEmpty(), "the core's messages go to debug at verbose 0");
        assertFalse(Files.exists(classes.resolve("META-INF")), "a dry run writes nothing");
    }

    @Test
    void aboveVerboseZeroTheCoresMessagesGoToInfo() throws Exception {
        mojo.verbose = 3; // lists the TF annotations found: the fixture has no class to enhance

        mojo.execute();

        assertTrue(log.at("info").size() > 1, log.at("info").toString());
    }

    @Test
    void failsListingEveryBadClassAndWritesNothing() throws Exception {
        writeBrokenClass(BROKEN);
        writeBrokenClass("com/example/AlsoBroken.class");

        MojoFailureException failure = assertThrows(MojoFailureException.class, mojo::execute);

        List<String> lines = failure.getMessage().lines().collect(java.util.stream.Collectors.toList());
        assertTrue(lines.stream().anyMatch(l -> l.contains("com/example/AlsoBroken.class: ")), failure.getMessage());
        assertTrue(lines.stream().anyMatch(l -> l.contains(BROKEN + ": ")), failure.getMessage());
        assertTrue(failure.getMessage().contains("TF found 2 errors in " + classes), failure.getMessage());
        assertFalse(Files.exists(classes.resolve("META-INF/tf/tfannotations.properties")));
    }

    @Test
    void withFailOnErrorFalseLogsTheErrorsAndEnhancesEveryOtherClass() throws Exception {
        compile(List.of("package com.example;\n@Storage public class Repo { @Storage public int load() { return 1; } }\n"));
        byte[] repo = Files.readAllBytes(classes.resolve("com/example/Repo.class"));
        writeBrokenClass(BROKEN);
        mojo.failOnError = false;

        mojo.execute();

        assertTrue(log.at("error").stream().anyMatch(l -> l.contains(BROKEN + ": ")), log.at("error").toString());
        assertTrue(log.at("error").stream().anyMatch(l -> l.contains("the classes with errors were left as they were")),
                log.at("error").toString());
        assertFalse(java.util.Arrays.equals(repo, Files.readAllBytes(classes.resolve("com/example/Repo.class"))),
                "the class without errors is enhanced");
        assertEquals("2", annotationList().getProperty("org.tracingfacility.tf.annotations.size"));
    }

    /** A class whose {@code big(int)} javac compiles to 65,462 bytes: TF's additions would pass 65,535. */
    private void compileAMethodTfCannotGrow() throws IOException {
        String statements = "        x ^= 0x1234;\n".repeat(10_910);
        compile(List.of("package com.example;\npublic class Big {\n    public static int big(int x) {\n" + statements
                + "        return x;\n    }\n    public static int small(int x) { return x + 1; }\n}\n"));
    }

    @Test
    void aFilterSelectedMethodTfCannotEnhanceIsAWarningAndCounted() throws Exception {
        compileAMethodTfCannotGrow();
        mojo.filters = List.of("com.example.Big");

        mojo.execute();

        assertEquals(1, log.at("warn").size(), log.at("warn").toString());
        assertTrue(log.at("warn").get(0).startsWith("TF: com.example.Big.big(I)I: not enhanced, left as it was: "),
                log.at("warn").toString());
        assertTrue(log.at("info").stream().anyMatch(l -> l.contains(", 1 method skipped;")), log.at("info").toString());
    }

    @Test
    void failOnSkipFailsTheBuildInstead() throws Exception {
        compileAMethodTfCannotGrow();
        mojo.filters = List.of("com.example.Big");
        mojo.failOnSkip = true;

        MojoFailureException failure = assertThrows(MojoFailureException.class, mojo::execute);

        assertTrue(failure.getMessage().contains("com.example.Big.big(I)I: "), failure.getMessage());
        assertTrue(failure.getMessage().contains("failOnSkip is set"), failure.getMessage());
    }

    @Test
    void anOptionalTfRuntimeIsAWarningNamingTheDependencyAndTheFix() throws Exception {
        Dependency runtime = new Dependency();
        runtime.setGroupId("org.tracingfacility");
        runtime.setArtifactId("tf-runtime");
        runtime.setVersion("0.1.0-SNAPSHOT");
        runtime.setOptional(true);
        mojo.dependencies = List.of(runtime);

        mojo.execute();

        assertEquals(List.of("TF: the dependency org.tracingfacility:tf-runtime:jar:0.1.0-SNAPSHOT is "
                + "<optional>true</optional>: the enhanced classes call it at run time, and projects that depend on "
                + "this one will not get it (NoClassDefFoundError: org/tracingfacility/runtime/...); remove "
                + "<optional>true</optional> from it and keep the default (compile) scope (README, Quick start, "
                + "step 3)"), log.at("warn"));
    }

    @Test
    void aTfRuntimeOfTheDefaultScopeIsNoWarning() throws Exception {
        Dependency runtime = new Dependency();
        runtime.setGroupId("org.tracingfacility");
        runtime.setArtifactId("tf-runtime");
        runtime.setVersion("0.1.0-SNAPSHOT");
        mojo.dependencies = List.of(runtime);

        mojo.execute();

        assertEquals(List.of(), log.at("warn"));
    }

    @Test
    void skipWritesNothing() throws Exception {
        mojo.skip = true;

        mojo.execute();

        assertEquals(List.of("TF enhancement skipped (tf.skip=true)"), log.at("info"));
        assertFalse(Files.exists(classes.resolve("META-INF")));
    }

    @Test
    void aMissingClassDirectoryIsSkipped() throws Exception {
        EnhanceTestsMojo tests = new EnhanceTestsMojo();
        tests.setLog(log);
        tests.testClassesDirectory = work.resolve("test-classes").toFile();

        tests.execute();

        assertEquals(List.of("TF enhancement skipped: no class directory " + work.resolve("test-classes")),
                log.at("info"));
    }

    private Properties annotationList() throws IOException {
        Properties properties = new Properties();
        try (InputStream in = Files.newInputStream(classes.resolve("META-INF/tf/tfannotations.properties"))) {
            properties.load(in);
        }
        return properties;
    }

    /** A truncated class file: the magic number, a version, and nothing else. */
    private void writeBrokenClass(String path) throws IOException {
        Path file = classes.resolve(path);
        Files.createDirectories(file.getParent());
        Files.write(file, new byte[] {(byte) 0xCA, (byte) 0xFE, (byte) 0xBA, (byte) 0xBE, 0, 0, 0, 55, 0, 7});
    }

    private void compile(List<String> sources) throws IOException {
        List<Path> files = new ArrayList<>();
        for (String source : sources) {
            String pkg = source.substring("package ".length(), source.indexOf(';'));
            String name = source.replaceFirst("(?s).*?public (?:@interface|class) (\\w+).*", "$1");
            Path file = work.resolve("src").resolve(pkg.replace('.', '/')).resolve(name + ".java");
            Files.createDirectories(file.getParent());
            Files.writeString(file, source);
            files.add(file);
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        StringWriter diagnostics = new StringWriter();
        try (StandardJavaFileManager fileManager = javac.getStandardFileManager(null, null, StandardCharsets.UTF_8)) {
            boolean compiled = javac.getTask(diagnostics, fileManager, null,
                    List.of("--release", "11", "-cp", classes.toString(), "-d", classes.toString()), null,
                    fileManager.getJavaFileObjectsFromPaths(files)).call();
            assertTrue(compiled, () -> "fixture did not compile:\n" + diagnostics);
        }
    }
}
