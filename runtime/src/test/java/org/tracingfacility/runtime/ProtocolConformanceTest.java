package org.tracingfacility.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tracingfacility.runtime.support.EnhancedCodeSupport;
import org.tracingfacility.runtime.support.GuardedSites;

/**
 * Every class, member and descriptor that enhanced code names (the list that the Rust core
 * writes from {@code rust-core/src/protocol.rs}) exists here with exactly that shape, and is
 * public: generated code lives in other packages.
 */
class ProtocolConformanceTest {
    private static final String PROTOCOL = "tf-protocol.txt";

    @Test
    void everyProtocolEntryExistsWithItsExactShape() throws Exception {
        List<String> lines = protocolLines();
        assertFalse(lines.isEmpty(), "no entries in " + PROTOCOL);
        List<String> problems = new ArrayList<>();
        for (String line : lines) {
            String[] parts = line.split(" ");
            try {
                switch (parts[0]) {
                    case "member":
                        checkMember(parts[1], parts[2], parts[3]);
                        break;
                    case "annotation":
                        Class<?> annotation = load(parts[1]);
                        assertTrue(annotation.isAnnotation(), annotation + " is not an annotation type");
                        break;
                    case "enum":
                        checkEnumConstant(parts[1], parts[2]);
                        break;
                    default:
                        fail("unknown protocol entry kind: " + line);
                }
            } catch (AssertionError | ReflectiveOperationException | RuntimeException e) {
                problems.add(line + ": " + e);
            }
        }
        assertEquals(List.of(), problems);
    }

    @Test
    void protocolListsEveryKindOfEntry() throws IOException {
        List<String> lines = protocolLines();
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("member ")));
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("annotation ")));
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("enum ")));
    }

    private static void checkMember(String owner, String name, String descriptor) throws ReflectiveOperationException {
        Class<?> cls = load(owner);
        ClassLoader loader = cls.getClassLoader();
        assertTrue(Modifier.isPublic(cls.getModifiers()), owner + " is not public");
        if (!descriptor.startsWith("(")) {
            Field field = cls.getDeclaredField(name);
            assertEquals(descriptor, MethodType.methodType(field.getType()).toMethodDescriptorString()
                    .substring(2), "type of field " + name);
            assertTrue(Modifier.isPublic(field.getModifiers()) && Modifier.isStatic(field.getModifiers())
                    && Modifier.isFinal(field.getModifiers()), name + " must be public static final");
            return;
        }
        MethodType type = MethodType.fromMethodDescriptorString(descriptor, loader);
        if (name.equals("<init>")) {
            Constructor<?> constructor = cls.getDeclaredConstructor(type.parameterArray());
            assertTrue(Modifier.isPublic(constructor.getModifiers()), "constructor " + descriptor + " not public");
            return;
        }
        Method method = cls.getDeclaredMethod(name, type.parameterArray());
        assertEquals(type.returnType(), method.getReturnType(), "return type of " + name);
        assertTrue(Modifier.isPublic(method.getModifiers()), name + " is not public");
        boolean generatedCodeCallsStatically = cls == EnhancedCodeSupport.class || cls == GuardedSites.class;
        assertEquals(generatedCodeCallsStatically, Modifier.isStatic(method.getModifiers()),
                name + ": static modifier");
    }

    private static void checkEnumConstant(String owner, String constant) throws ReflectiveOperationException {
        Class<?> cls = load(owner);
        assertTrue(cls.isEnum(), owner + " is not an enum");
        Field field = cls.getField(constant);
        assertTrue(field.isEnumConstant(), constant + " is not an enum constant");
    }

    private static Class<?> load(String internalName) throws ClassNotFoundException {
        return Class.forName(internalName.replace('/', '.'), false, ProtocolConformanceTest.class.getClassLoader());
    }

    private static List<String> protocolLines() throws IOException {
        try (InputStream in = ProtocolConformanceTest.class.getResourceAsStream(PROTOCOL)) {
            assertTrue(in != null, PROTOCOL + " not on the test class path");
            List<String> lines = new ArrayList<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank()) {
                    lines.add(line.trim());
                }
            }
            return lines;
        }
    }
}
