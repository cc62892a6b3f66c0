package org.tracingfacility.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tracingfacility.it.Gradle8MultiProjectIT.outcomes;

import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every JVM language on Gradle 8.11.1, with the sources the Maven and Gradle 4.4.1 builds
 * compile and the build files of {@code projects/gradle8-overlays}: Kotlin (Kotlin Gradle
 * plugin 2.1, on the buildscript class path from Maven Central) with Java and Groovy 4 in one
 * source set, and Java with Scala 2.13 (Gradle's scala plugin, Zinc from Maven Central). Each
 * project is built three times, with the configuration cache and the build cache: stored,
 * reused with every compile task UP-TO-DATE, and after a clean with every compile task
 * FROM-CACHE. Each time the program runs and prints exactly the events of the other builds.
 */
class JvmLanguagesGradle8IT {
    private static final String[] OPTIONS = {"--configuration-cache", "--build-cache", "--warning-mode=fail"};

    @BeforeAll
    static void gradle8IsBesideTheRepository() {
        Gradle8Build.executable();
    }

    @Test
    void kotlinJavaAndGroovyClassesAreEachEnhancedByTheirCompileTask() throws Exception {
        Gradle8Build build = Gradle8Build.of(
                SampleProjects.copyForGradle8("jvm-languages", "gradle8-jvm-languages"), "gradle8-jvm-languages-home");

        byte[] list = assertBuildsTraceAndCache(build, "build/libs/jvm-languages.jar",
                List.of(":compileKotlin", ":compileJava", ":compileGroovy"),
                JvmLanguagesGradleIT.EVENTS, result -> GradleOutput.linesStartingWith(result, "event "));

        assertEquals(List.of("com.example.shop.Delivery", "com.example.shop.Orders", "com.example.shop.Pricing"),
                TfAnnotationList.parse(list), "one list: the groups Groovy, Java and Kotlin defined");
    }

    @Test
    void javaAndScalaClassesAreEachEnhancedByTheirCompileTask() throws Exception {
        Gradle8Build build = Gradle8Build.of(
                SampleProjects.copyForGradle8("scala-app", "gradle8-scala-app"), "gradle8-scala-app-home");

        byte[] list = assertBuildsTraceAndCache(build, "build/libs/scala-app.jar", List.of(":compileJava", ":compileScala"),
                ScalaProgramIT.expectedOutput(ScalaProgramIT.Scalac.SCALA_2_13),
                result -> GradleOutput.printedBy(result, ":run"));

        assertEquals(List.of("com.example.shop.Checkout"), TfAnnotationList.parse(list));
    }

    /**
     * Builds the jar and runs the program three times: configuration cache stored, then reused
     * with the compile tasks UP-TO-DATE, then after a clean with them FROM-CACHE.
     *
     * @return the annotation list in the jar, the same bytes each time
     */
    private static byte[] assertBuildsTraceAndCache(Gradle8Build build, String jar, List<String> compileTasks,
            List<String> events, Function<ProcessRunner.Result, List<String>> eventsOf) throws Exception {
        ProcessRunner.Result first = build.run(with("jar", "run"));

        assertEquals(0, first.exitCode, first::describe);
        assertTrue(GradleOutput.configurationCacheStored(first), first::describe);
        assertTrue(GradleOutput.tasks(first).containsAll(compileTasks), first::describe);
        assertEquals(events, eventsOf.apply(first), first::describe);
        byte[] list = annotationList(build.project().resolve(jar));

        ProcessRunner.Result second = build.run(with("jar", "run"));

        assertEquals(0, second.exitCode, second::describe);
        assertTrue(GradleOutput.configurationCacheReused(second), second::describe);
        assertTrue(GradleOutput.tasks(second).containsAll(outcomes(compileTasks, "UP-TO-DATE")), second::describe);
        assertEquals(events, eventsOf.apply(second), second::describe);

        ProcessRunner.Result cleaned = build.run(with("clean", "jar", "run"));

        assertEquals(0, cleaned.exitCode, cleaned::describe);
        assertTrue(GradleOutput.tasks(cleaned).containsAll(outcomes(compileTasks, "FROM-CACHE")), cleaned::describe);
        assertEquals(events, eventsOf.apply(cleaned), cleaned::describe);
        assertArrayEquals(list, annotationList(build.project().resolve(jar)));
        return list;
    }

    private static byte[] annotationList(Path jar) throws Exception {
        return JarContents.entry(jar, TfAnnotationList.RESOURCE)
                .orElseThrow(() -> new AssertionError(TfAnnotationList.RESOURCE + " is missing from " + jar));
    }

    private static String[] with(String... tasks) {
        String[] all = new String[OPTIONS.length + tasks.length];
        System.arraycopy(OPTIONS, 0, all, 0, OPTIONS.length);
        System.arraycopy(tasks, 0, all, OPTIONS.length, tasks.length);
        return all;
    }
}
