package org.tracingfacility.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
    void aSimpleNameListedTwiceIsAmbiguous(@TempDir Path dir) throws Exception {
        Path resource = dir.resolve(GroupNames.RESOURCE);
        Files.createDirectories(resource.getParent());
        Files.write(resource, String.join("\n",
                "org.tracingfacility.tf.annotations.size=2",
                "org.tracingfacility.tf.annotation.1=a.Shared",
                "org.tracingfacility.tf.annotation.2=b.Shared").getBytes(StandardCharsets.ISO_8859_1));
        try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()}, LOADER)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> GroupNames.resolve("Shared", loader));
            assertTrue(e.getMessage().contains("ambiguous: [a.Shared, b.Shared]"), e.getMessage());
            assertTrue(GroupNames.all(loader).containsAll(List.of("a.Shared", "b.Shared",
                    "org.tracingfacility.runtime.TestGroups$IO", Filtered.class.getName())));
        }
    }
}
