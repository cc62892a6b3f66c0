package org.tracingfacility.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A real Gradle build of {@code projects/jvm-languages}: one source set compiled by the Kotlin
 * Gradle plugin (1.3.31, from Maven Central), javac and the groovy plugin, with TF applied
 * through {@code plugins {}}. Each compile task enhances its own classes; the jar lists the TF
 * groups all three defined; the program, run with a recording monitor on every group, shows
 * the traced Groovy, Java and Kotlin methods; a second build is UP-TO-DATE throughout.
 *
 * <p>Scala is not here: Debian's Gradle 4.4.1 cannot compile Scala at all (its scala plugin
 * fails with "Gradle in Debian does not support Zinc compiler"); {@link JvmLanguagesGradle8IT}
 * builds it with Gradle 8.
 */
class JvmLanguagesGradleIT {
    private static final String JAR = "build/libs/jvm-languages.jar";
    private static final List<String> COMPILE_TASKS = List.of(":compileKotlin", ":compileJava", ":compileGroovy");

    /** What the recording monitors saw, in order: Groovy calls Java calls Kotlin (Gradle 4.4.1 and 8 alike). */
    static final List<String> EVENTS = List.of(
            "event enter Courier.deliver[[tea, cake]]",
            "event enter Checkout.total[[tea, cake]]",
            "event enter PriceList.priceOf[tea]",
            "event exit PriceList.priceOf = 3",
            "event enter PriceList.priceOf[cake]",
            "event exit PriceList.priceOf = 5",
            "event enter PriceList.discount[8]",
            "event exit PriceList.discount = 7",
            "event exit Checkout.total = 7",
            "event exit Courier.deliver = delivered 2 items for 7");

    @BeforeAll
    static void gradleIsInstalled() {
        assertTrue(Files.isExecutable(Path.of(GradleBuild.executable())),
                "no Gradle at " + GradleBuild.executable() + " (scripts/setup.sh installs Debian's)");
    }

    @Test
    void kotlinJavaAndGroovyClassesAreEachEnhancedByTheirCompileTaskAndListedOnce() throws Exception {
        GradleBuild build = GradleBuild.ofRelease(SampleProjects.copy("jvm-languages", "gradle-jvm-languages"));

        ProcessRunner.Result first = build.run("jar", "run");

        assertEquals(0, first.exitCode, first::describe);
        assertTrue(GradleBuild.taskLines(first).containsAll(COMPILE_TASKS), first::describe);
        assertEquals(EVENTS, eventLines(first), first::describe);
        assertTrue(first.output.contains("delivered 2 items for 7"), first::describe);
        Path jar = build.project().resolve(JAR);
        byte[] list = JarContents.entry(jar, TfAnnotationList.RESOURCE)
                .orElseThrow(() -> new AssertionError(TfAnnotationList.RESOURCE + " is missing from " + jar));
        assertEquals(List.of("com.example.shop.Delivery", "com.example.shop.Orders", "com.example.shop.Pricing"),
                TfAnnotationList.parse(list), "one list: the groups Groovy, Java and Kotlin defined");

        ProcessRunner.Result second = build.run("jar", "run");

        assertEquals(0, second.exitCode, second::describe);
        Set<String> upToDate = COMPILE_TASKS.stream().map(task -> task + " UP-TO-DATE").collect(Collectors.toSet());
        upToDate.addAll(Set.of(":tfAnnotationList UP-TO-DATE", ":jar UP-TO-DATE"));
        assertTrue(GradleBuild.taskLines(second).containsAll(upToDate), second::describe);
        assertArrayEquals(list, JarContents.entry(jar, TfAnnotationList.RESOURCE).orElseThrow());
        assertEquals(EVENTS, eventLines(second), second::describe);
    }

    private static List<String> eventLines(ProcessRunner.Result result) {
        return Arrays.stream(result.output.split("\\R")).map(String::trim)
                .filter(line -> line.startsWith("event ")).collect(Collectors.toList());
    }
}
