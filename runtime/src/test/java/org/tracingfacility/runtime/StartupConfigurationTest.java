package org.tracingfacility.runtime;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.tracingfacility.annotation.Filtered;
import org.tracingfacility.runtime.TestGroups.Audit;
import org.tracingfacility.runtime.TestGroups.IO;
import org.tracingfacility.runtime.TestGroups.IORead;

/**
 * The value of {@code -Dtf.monitor}, applied through the entry point the registry calls at
 * start-up; groups are found through the test class path's
 * {@code META-INF/tf/tfannotations.properties}.
 */
@ExtendWith(RegistryCleanup.class)
class StartupConfigurationTest {
    private static final ClassLoader LOADER = StartupConfigurationTest.class.getClassLoader();

    @Test
    void registersFactoriesOnGroupsBySimpleOrFullName() {
        List<String> problems = StartupConfiguration.applyMonitorProperty(
                " IORead=timing , org.tracingfacility.runtime.TestGroups$IO=dprint,Audit=noOp,Filtered=jfr", LOADER);

        assertEquals(List.of(), problems);
        assertSame(MethodMonitorFactoryDefaults.timing(), MethodMonitorRegistry.registeredFactory(IORead.class));
        assertSame(MethodMonitorFactoryDefaults.dprint(), MethodMonitorRegistry.registeredFactory(IO.class));
        assertSame(MethodMonitorFactoryDefaults.noOp(), MethodMonitorRegistry.registeredFactory(Audit.class));
        assertSame(MethodMonitorFactoryDefaults.jfr(), MethodMonitorRegistry.registeredFactory(Filtered.class));
    }

    @Test
    void reportsEachBadEntryAndAppliesTheGoodOnes() {
        List<String> problems = StartupConfiguration.applyMonitorProperty(
                "Nope=timing,IO=sometimes,justAName,IORead=operationTracer,=dprint,NotAGroup=noOp", LOADER);

        assertEquals(5, problems.size(), problems.toString());
        assertTrue(problems.get(0).startsWith("unknown TF group 'Nope'"), problems.get(0));
        assertTrue(problems.get(1).startsWith("unknown factory 'sometimes'"), problems.get(1));
        assertEquals("'justAName' is not Group=factory", problems.get(2));
        assertEquals("'=dprint' is not Group=factory", problems.get(3));
        assertTrue(problems.get(4).contains("unknown TF group 'NotAGroup'"), problems.get(4));
        assertSame(MethodMonitorFactoryDefaults.operationTracer(), MethodMonitorRegistry.registeredFactory(IORead.class));
        assertNull(MethodMonitorRegistry.registeredFactory(IO.class));
    }

    @Test
    void namesAFactoryByProviderOrClassNameAndAcceptsSemicolons() {
        List<String> problems = StartupConfiguration.applyMonitorProperty(
                "IORead=printing; Audit=org.tracingfacility.runtime.PrintingFactory", LOADER);

        assertEquals(List.of(), problems);
        assertEquals("PrintingFactory(provided)", String.valueOf(MethodMonitorRegistry.registeredFactory(IORead.class)));
        assertEquals("PrintingFactory(by class name)", String.valueOf(MethodMonitorRegistry.registeredFactory(Audit.class)));
    }

    @Test
    void saysWhyAClassCannotServeAsAFactory() {
        List<String> problems = StartupConfiguration.applyMonitorProperty(String.join(";",
                "IO=java.lang.String",
                "IO=org.tracingfacility.runtime.RecordingFactory",
                "IO=org.tracingfacility.runtime.StartupConfigurationTest$NeedsAnArgument",
                "IO=org.tracingfacility.runtime.StartupConfigurationTest$FailsToStart",
                "IO=com.example.Missing"), LOADER);

        assertEquals(List.of(
                "factory class 'java.lang.String' does not implement org.tracingfacility.runtime.MethodMonitorFactory",
                "factory class 'org.tracingfacility.runtime.RecordingFactory' is not a public concrete class",
                "factory class 'org.tracingfacility.runtime.StartupConfigurationTest$NeedsAnArgument'"
                        + " has no public no-argument constructor",
                "factory class 'org.tracingfacility.runtime.StartupConfigurationTest$FailsToStart'"
                        + " failed in its constructor: java.lang.IllegalStateException: no licence",
                "unknown factory 'com.example.Missing'; known: [noOp, dprint, operationTracer, timing, jfr, profile, calls, printing],"
                        + " or the full name of a MethodMonitorFactory class with a public no-argument constructor"),
                problems);
        assertNull(MethodMonitorRegistry.registeredFactory(IO.class));
    }

    /**
     * A provider listed but absent, and one whose library is missing (as a monitor module
     * without its OpenTelemetry jar): compiled here against an interface then deleted.
     */
    @Test
    void providersThatCannotBeLoadedAreSaidAndSkipped(@TempDir Path dir) throws Exception {
        Path source = dir.resolve("src/example");
        Files.createDirectories(source);
        Files.write(source.resolve("Library.java"), "package example; public interface Library {}".getBytes(UTF_8));
        Files.write(source.resolve("NeedsLibrary.java"), String.join("\n",
                "package example;",
                "public class NeedsLibrary implements org.tracingfacility.runtime.MethodMonitorFactoryProvider, Library {",
                "    public String name() { return \"needsLibrary\"; }",
                "    public org.tracingfacility.runtime.MethodMonitorFactory create() { return null; }",
                "}").getBytes(UTF_8));
        Path classes = dir.resolve("classes");
        int compiled = ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", classes.toString(),
                "-cp", System.getProperty("java.class.path"),
                source.resolve("Library.java").toString(), source.resolve("NeedsLibrary.java").toString());
        assertEquals(0, compiled);
        Files.delete(classes.resolve("example/Library.class"));
        Path services = classes.resolve("META-INF/services/" + MethodMonitorFactoryProvider.class.getName());
        Files.createDirectories(services.getParent());
        Files.write(services, "example.Missing\nexample.NeedsLibrary\n".getBytes(UTF_8));
        PrintStream stderr = System.err;
        ByteArrayOutputStream said = new ByteArrayOutputStream();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()}, LOADER)) {
            System.setErr(new PrintStream(said, true, StandardCharsets.UTF_8));
            List<String> problems = StartupConfiguration.applyMonitorProperty("IORead=printing", loader);
            assertEquals(List.of(), problems);
        } finally {
            System.setErr(stderr);
        }
        assertEquals("PrintingFactory(provided)", String.valueOf(MethodMonitorRegistry.registeredFactory(IORead.class)));
        List<String> lines = List.of(said.toString(UTF_8).split(System.lineSeparator()));
        assertEquals(2, lines.size(), lines.toString());
        assertEquals("TF: a monitor factory provider is skipped: java.util.ServiceConfigurationError: "
                + MethodMonitorFactoryProvider.class.getName() + ": Provider example.Missing not found", lines.get(0));
        assertTrue(lines.get(1).startsWith("TF: a monitor factory provider is skipped: java.lang.NoClassDefFoundError: "
                + "example/Library"), lines.get(1));
    }

    /** A factory class {@code -Dtf.monitor} cannot create: its constructor takes an argument. */
    public static final class NeedsAnArgument implements MethodMonitorFactory {
        public NeedsAnArgument(String unused) {
        }

        @Override
        public MethodMonitor create(Class<?> cls) {
            return new NoOpMonitor(cls);
        }
    }

    /** A factory class whose constructor throws. */
    public static final class FailsToStart implements MethodMonitorFactory {
        public FailsToStart() {
            throw new IllegalStateException("no licence");
        }

        @Override
        public MethodMonitor create(Class<?> cls) {
            return new NoOpMonitor(cls);
        }
    }

    @Test
    void aSimpleNameListedTwiceIsAmbiguous(@TempDir Path dir) throws Exception {
        listGroups(dir, "a.Shared", "b.Shared");
        try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()}, LOADER)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> GroupNames.resolve("Shared", loader));
            assertTrue(e.getMessage().contains("ambiguous: [a.Shared, b.Shared]"), e.getMessage());
            assertTrue(GroupNames.all(loader).containsAll(List.of("a.Shared", "b.Shared",
                    "org.tracingfacility.runtime.TestGroups$IO", Filtered.class.getName())));
        }
    }

    @Test
    void filteredIsTfsOwnGroupEvenWhenTheClassPathListsAnotherOfThatName(@TempDir Path dir) throws Exception {
        listGroups(dir, "a.Filtered");
        try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()}, LOADER)) {
            assertEquals(Filtered.class, GroupNames.resolve("Filtered", loader));
            assertEquals(Filtered.class, GroupNames.resolve(Filtered.class.getName(), loader));
            // The application's group of that name is still there, by its full name.
            assertTrue(GroupNames.all(loader).contains("a.Filtered"));
        }
    }

    /** Writes {@code dir}'s {@link GroupNames#RESOURCE} listing {@code groups}, as the enhancer does. */
    private static void listGroups(Path dir, String... groups) throws Exception {
        Path resource = dir.resolve(GroupNames.RESOURCE);
        Files.createDirectories(resource.getParent());
        StringBuilder text = new StringBuilder("org.tracingfacility.tf.annotations.size=" + groups.length);
        for (int i = 0; i < groups.length; i++) {
            text.append("\norg.tracingfacility.tf.annotation.").append(i + 1).append('=').append(groups[i]);
        }
        Files.write(resource, text.toString().getBytes(StandardCharsets.ISO_8859_1));
    }
}
