package org.tracingfacility.agent;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClassSelectorTest {
    private static final byte[] PLAIN = bytes("...Ljava/lang/Object;...run...");
    private static final List<byte[]> NO_GROUPS = List.of();

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void classPatternsAsInTheCore() {
        ClassSelector selector = new ClassSelector(List.of("com.ex.*", "IO=org.lib.**;net.One::go"));
        assertTrue(selector.worthACall("com.ex.A", PLAIN, NO_GROUPS));
        assertFalse(selector.worthACall("com.ex.sub.A", PLAIN, NO_GROUPS), "pkg.* is one package");
        assertTrue(selector.worthACall("org.lib.deep.B", PLAIN, NO_GROUPS));
        assertTrue(selector.worthACall("org.lib.B", PLAIN, NO_GROUPS));
        assertFalse(selector.worthACall("org.library.B", PLAIN, NO_GROUPS));
        assertTrue(selector.worthACall("net.One", PLAIN, NO_GROUPS), "the target after ';' counts too");
        assertFalse(selector.worthACall("net.One$Inner", PLAIN, NO_GROUPS));
    }

    @Test
    void methodAndAnnotationTargetsAndTfMarksLookInsideTheClass() {
        ClassSelector selector = new ClassSelector(List.of("::handle", "@com.ex.Traced"));
        assertFalse(selector.worthACall("a.B", PLAIN, NO_GROUPS));
        assertTrue(selector.worthACall("a.B", bytes("..handle.."), NO_GROUPS));
        assertTrue(selector.worthACall("a.B", bytes("..Lcom/ex/Traced;.."), NO_GROUPS));
        assertTrue(selector.worthACall("a.B", bytes("..Lorg/tracingfacility/annotation/TFEnhanced;.."), NO_GROUPS));
        assertTrue(selector.worthACall("a.B", bytes("..Lcom/ex/IO;.."), List.of(bytes("Lcom/ex/IO;"))));
    }

    @Test
    void jdkClassesOnlyByAPatternNamingThem() {
        ClassSelector everything = new ClassSelector(List.of("**", "::put"));
        assertFalse(everything.selectsJdkClass("java.util.concurrent.ConcurrentSkipListMap"));
        ClassSelector named = new ClassSelector(List.of("java.util.concurrent.**"));
        assertTrue(named.selectsJdkClass("java.util.concurrent.ConcurrentSkipListMap"));
        assertFalse(named.selectsJdkClass("java.util.HashMap"));
    }
}
