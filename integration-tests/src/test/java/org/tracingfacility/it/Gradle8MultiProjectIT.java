package org.tracingfacility.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A user's Gradle 8.11.1 build of {@code projects/gradle8-multi-project}: TF applied through
 * {@code plugins {}} at its {@code -SNAPSHOT} version in two projects, {@code :app} tracing its
 * classes with the group {@code :groups} defines. Every build runs with the configuration
 * cache, the build cache, {@code --parallel} and {@code --warning-mode=fail} (a deprecated API
 * fails the build: readiness for Gradle 9), as one project copy goes through what a user does
 * with it: build, build again, clean, move the checkout, edit a file, change TF's settings.
 */
class Gradle8MultiProjectIT {
    private static final String[] OPTIONS = {"--configuration-cache", "--build-cache", "--parallel",
            "--warning-mode=fail"};

    private static final List<String> COMPILE_TASKS =
            List.of(":groups:compileJava", ":app:compileJava", ":app:compileTestJava");

    private static final String APP_JAR = "app/build/libs/app.jar";
    private static final String GROUPS_JAR = "groups/build/libs/groups.jar";
    private static final String LABEL_SOURCE = "app/src/main/java/com/example/app/Label.java";

    @BeforeAll
    static void gradle8IsBesideTheRepository() {
        Gradle8Build.executable();
    }

    @Test
    void aTwoProjectBuildIsTracedCachedRelocatableAndIncremental() throws Exception {
        assertEquals("0.1.0-SNAPSHOT", ItEnvironment.tfVersion(),
                "the projects' plugins {} blocks name the version this reactor builds");
        Gradle8Build build = Gradle8Build.of(
                SampleProjects.copy("gradle8-multi-project", "gradle8-multi-project"), "gradle8-multi-project-home");

        // First build: everything compiles, is enhanced, tested and run; the configuration
        // cache is stored without a problem and no deprecated API is used.
        ProcessRunner.Result first = build.run(with("build", "run"));

        assertSucceeded(first);
        assertTrue(GradleOutput.configurationCacheStored(first), first::describe);
        assertTrue(GradleOutput.tasks(first).containsAll(Set.of(
                ":groups:compileJava", ":app:compileJava", ":app:compileTestJava", ":app:test")), first::describe);
        assertEquals(runEvents("5 items"), GradleOutput.printedBy(first, ":app:run"), first::describe);
        // The JUnit test in the forked worker: the test class and the main class it calls are
        // both enhanced, and the monitor chosen for the test JVM sees them, nested.
        assertEquals(List.of(
                "TF [Test worker] > com.example.app.ShelfTest.filled(4)",
                "TF [Test worker]   > com.example.app.Shelf.add(4)",
                "TF [Test worker]   < com.example.app.Shelf.add",
                "TF [Test worker]   > com.example.app.Shelf.count()",
                "TF [Test worker]   < com.example.app.Shelf.count = 4",
                "TF [Test worker] < com.example.app.ShelfTest.filled = 4"),
                GradleOutput.linesStartingWith(first, "TF [Test worker]"), first::describe);
        assertAnnotationLists(build);

        // The same build again: the configuration is reused, nothing compiles.
        ProcessRunner.Result second = build.run(with("build", "run"));

        assertSucceeded(second);
        assertTrue(GradleOutput.configurationCacheReused(second), second::describe);
        assertTrue(GradleOutput.tasks(second).containsAll(outcomes(COMPILE_TASKS, "UP-TO-DATE")), second::describe);
        assertEquals(runEvents("5 items"), GradleOutput.printedBy(second, ":app:run"), second::describe);

        // After a clean, the enhanced classes come from the build cache.
        ProcessRunner.Result cleaned = build.run(with("clean", "build", "run"));

        assertSucceeded(cleaned);
        assertTrue(GradleOutput.tasks(cleaned).containsAll(outcomes(COMPILE_TASKS, "FROM-CACHE")), cleaned::describe);
        assertEquals(runEvents("5 items"), GradleOutput.printedBy(cleaned, ":app:run"), cleaned::describe);
        assertAnnotationLists(build);

        // The checkout moves: the cache entries hold no absolute path, they still match.
        build.moveTo("gradle8-moved/gradle8-multi-project");
        ProcessRunner.Result moved = build.run(with("clean", "build", "run"));

        assertSucceeded(moved);
        assertTrue(GradleOutput.tasks(moved).containsAll(outcomes(COMPILE_TASKS, "FROM-CACHE")), moved::describe);
        assertEquals(runEvents("5 items"), GradleOutput.printedBy(moved, ":app:run"), moved::describe);
        assertAnnotationLists(build);

        // One source file changes: javac compiles it alone, TF enhances its class alone
        // (verbose 1 names each class it writes), and the list still names the project's group.
        Path label = build.project().resolve(LABEL_SOURCE);
        Files.writeString(label, Files.readString(label).replace("\" items\"", "\" boxes\""));
        ProcessRunner.Result edited = build.run(with("build", "run", "-PtfVerbose=1"));

        assertSucceeded(edited);
        assertTrue(GradleOutput.tasks(edited).containsAll(Set.of(":groups:compileJava UP-TO-DATE",
                ":app:compileJava", ":app:compileTestJava UP-TO-DATE")), edited::describe);
        assertEquals(List.of("enhanced com.example.app.Label"),
                GradleOutput.linesStartingWith(edited, "enhanced "), edited::describe);
        assertEquals(runEvents("5 boxes"), GradleOutput.printedBy(edited, ":app:run"), edited::describe);
        assertAnnotationLists(build);

        // A TF setting that changes what TF writes (filters) is an input: compileJava runs again.
        ProcessRunner.Result filtered = build.run(with("build", "-PtfFilters=com.example.app.Main::main"));

        assertSucceeded(filtered);
        assertTrue(GradleOutput.tasks(filtered).contains(":app:compileJava"), filtered::describe);

        // verbose only changes the log: not an input, nothing compiles again.
        ProcessRunner.Result verbose = build.run(with("build", "-PtfFilters=com.example.app.Main::main",
                "-PtfVerbose=3"));

        assertSucceeded(verbose);
        assertTrue(GradleOutput.tasks(verbose).contains(":app:compileJava UP-TO-DATE"), verbose::describe);
    }

    /** What {@code :app:run} prints: the dprint monitor on Stock and Labels, then the label. */
    private static List<String> runEvents(String label) {
        return List.of(
                "TF [main] > com.example.app.Shelf.add(2)",
                "TF [main] < com.example.app.Shelf.add",
                "TF [main] > com.example.app.Shelf.add(3)",
                "TF [main] < com.example.app.Shelf.add",
                "TF [main] > com.example.app.Shelf.count()",
                "TF [main] < com.example.app.Shelf.count = 5",
                "TF [main] > com.example.app.Label.of(5)",
                "TF [main] < com.example.app.Label.of = \"" + label + "\"",
                label);
    }

    /** Each jar lists the TF groups its own project defines: Stock in :groups, Labels in :app. */
    private static void assertAnnotationLists(Gradle8Build build) throws Exception {
        assertEquals(List.of("com.example.groups.Stock"), annotationList(build.project().resolve(GROUPS_JAR)));
        assertEquals(List.of("com.example.app.Labels"), annotationList(build.project().resolve(APP_JAR)));
    }

    private static List<String> annotationList(Path jar) throws Exception {
        byte[] list = JarContents.entry(jar, TfAnnotationList.RESOURCE)
                .orElseThrow(() -> new AssertionError(TfAnnotationList.RESOURCE + " is missing from " + jar));
        return TfAnnotationList.parse(list);
    }

    private static void assertSucceeded(ProcessRunner.Result result) {
        assertEquals(0, result.exitCode, result::describe);
        assertFalse(result.output.contains("Deprecated Gradle features"), result::describe);
    }

    static Set<String> outcomes(List<String> tasks, String outcome) {
        return tasks.stream().map(task -> task + " " + outcome).collect(Collectors.toSet());
    }

    static String[] with(String... tasksAndArguments) {
        String[] all = new String[OPTIONS.length + tasksAndArguments.length];
        System.arraycopy(OPTIONS, 0, all, 0, OPTIONS.length);
        System.arraycopy(tasksAndArguments, 0, all, OPTIONS.length, tasksAndArguments.length);
        return all;
    }
}
