package org.tracingfacility.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code mvn compile} (what IDEs delegate to, and what users run before {@code java -cp
 * target/classes}) leaves enhanced classes: {@code tf:enhance} runs in the {@code compile} phase
 * after javac, even when the POM declares TF before maven-compiler-plugin, and
 * {@code tf:enhance-tests} likewise at {@code test-compile}. Before, they ran at
 * {@code process-classes}, so {@code -Dtf.monitor=...} after {@code mvn compile} said nothing.
 */
class CompilePhaseIT {
    /** The descriptor of the annotation every enhanced class carries. */
    private static final byte[] ENHANCED_MARK =
            "Lorg/tracingfacility/annotation/TFEnhanced;".getBytes(StandardCharsets.UTF_8);
    private static final Pattern TF_PLUGIN =
            Pattern.compile("(?s)(\\s*<plugin>\\s*<groupId>org\\.tracingfacility</groupId>.*?</plugin>)");

    @ParameterizedTest
    @MethodSource("org.tracingfacility.it.MavenBuild#executables")
    void mvnCompileLeavesEnhancedClassesThatAMonitorSees(String mvn) throws Exception {
        Path project = SampleProjects.copy("sample", "maven-compile-phase" + MavenBuild.tag(mvn));
        declareTfBeforeTheCompiler(project.resolve("pom.xml"));
        MavenBuild maven = MavenBuild.of(mvn, project);

        ProcessRunner.Result compile = maven.run("compile");

        assertEquals(0, compile.exitCode, compile::describe);
        // Maven 3.8 logs maven-compiler-plugin:3.13.0:compile, 3.9 compiler:3.13.0:compile.
        int javac = compile.output.indexOf(":compile (default-compile)");
        int tf = compile.output.indexOf(":enhance (default)");
        assertTrue(javac >= 0 && tf > javac, "tf:enhance runs after javac in the compile phase: " + compile.describe());
        Path classes = project.resolve("target/classes");
        assertTrue(isEnhanced(classes.resolve("com/example/IOStream.class")), compile::describe);
        assertTrue(Files.exists(classes.resolve(TfAnnotationList.RESOURCE)), compile::describe);

        ProcessRunner.Result run = ProcessRunner.run(List.of(ItEnvironment.javaExecutable(), "-Dtf.monitor=IO=timing",
                        "-cp", classes + File.pathSeparator + ItEnvironment.runtimeJar(), "com.example.Main"),
                project, project.resolveSibling(project.getFileName() + "-run.log"), MavenBuild.BUILD_TIMEOUT);
        assertEquals(0, run.exitCode, run::describe);
        assertTrue(run.output.contains("Method Timing (TF)"), run::describe);
        assertTrue(run.output.contains("com.example.IOStream.writeInt"), run::describe);

        ProcessRunner.Result testCompile = maven.run("test-compile");
        assertEquals(0, testCompile.exitCode, testCompile::describe);
        assertTrue(isEnhanced(project.resolve("target/test-classes/com/example/ProbedStream.class")),
                testCompile::describe);
    }

    /**
     * Moves the TF plugin before an explicit maven-compiler-plugin: the order a POM could have,
     * and the one where a plain "same phase, POM order" rule would run TF before javac.
     * (Maven runs the packaging's own bindings, javac's default-compile among them, before
     * every execution the POM binds to the same phase.)
     */
    private static void declareTfBeforeTheCompiler(Path pom) throws Exception {
        String text = Files.readString(pom);
        Matcher tfPlugin = TF_PLUGIN.matcher(text);
        assertTrue(tfPlugin.find(), "the sample declares tf-maven-plugin");
        String withoutTf = text.substring(0, tfPlugin.start()) + text.substring(tfPlugin.end());
        String compiler = "\n      <plugin>\n        <artifactId>maven-compiler-plugin</artifactId>\n      </plugin>";
        int plugins = withoutTf.lastIndexOf("<plugins>");
        Files.writeString(pom, withoutTf.substring(0, plugins + "<plugins>".length())
                + tfPlugin.group(1) + compiler + withoutTf.substring(plugins + "<plugins>".length()));
    }

    private static boolean isEnhanced(Path classFile) throws Exception {
        byte[] bytes = Files.readAllBytes(classFile);
        outer:
        for (int i = 0; i + ENHANCED_MARK.length <= bytes.length; i++) {
            for (int j = 0; j < ENHANCED_MARK.length; j++) {
                if (bytes[i + j] != ENHANCED_MARK[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
