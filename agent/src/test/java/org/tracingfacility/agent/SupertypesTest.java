package org.tracingfacility.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the agent knows of a class's supertypes: from its head, its loader's class files, or reflection. */
class SupertypesTest {
    private static byte[] jdkClassFile(String binaryName) throws Exception {
        try (InputStream in = ClassLoader.getSystemResourceAsStream(binaryName.replace('.', '/') + ".class")) {
            return in.readAllBytes();
        }
    }

    @Test
    void theHeadNamesTheDirectSupertypesSuperclassFirst() throws Exception {
        assertEquals(List.of("java.io.OutputStream"), ClassHeader.directSupertypes(jdkClassFile("java.io.FileOutputStream")));
        assertEquals(List.of("java.util.AbstractMap", "java.util.Map", "java.lang.Cloneable", "java.io.Serializable"),
                ClassHeader.directSupertypes(jdkClassFile("java.util.HashMap")));
        assertEquals(List.of(), ClassHeader.directSupertypes(jdkClassFile("java.lang.Object")));
        assertEquals(List.of(), ClassHeader.directSupertypes(new byte[] {(byte) 0xCA, (byte) 0xFE}), "not a class file");
    }

    @Test
    void aLoadingClassGetsItsWholeChainFromItsLoadersClassFiles() throws Exception {
        List<String> all = Supertypes.ofLoading(ClassLoader.getSystemClassLoader(), "app.Out",
                jdkClassFile("java.io.BufferedOutputStream"));
        assertEquals(List.of("java.io.FilterOutputStream", "java.io.OutputStream", "java.lang.Object",
                "java.io.Closeable", "java.io.Flushable", "java.lang.AutoCloseable"), all);
    }

    @Test
    void aLoadedClassAnswersByReflection() {
        List<String> all = Supertypes.ofLoaded(java.io.PrintStream.class);
        assertTrue(all.containsAll(List.of("java.io.FilterOutputStream", "java.io.OutputStream", "java.lang.Appendable",
                "java.io.Closeable", "java.lang.AutoCloseable", "java.io.Flushable", "java.lang.Object")), all::toString);
    }

    @Test
    void aTypePlusTargetSelectsByTheSupertypes() {
        ClassSelector selector = new ClassSelector(List.of("java.sql.Connection+::prepareStatement"));
        assertTrue(selector.needsSupertypes());
        assertFalse(new ClassSelector(List.of("java.sql.Connection::prepareStatement")).needsSupertypes());
        assertTrue(selector.namesASupertype(List.of("org.h2.message.TraceObject", "java.sql.Connection")));
        assertFalse(selector.namesASupertype(List.of("java.lang.Object")));
        assertTrue(selector.namesClass("java.sql.Connection"), "the type itself, by name");
        assertFalse(selector.namesClass("org.h2.jdbc.JdbcConnection"), "a subtype only by its supertypes");
    }
}
