package org.tracingfacility.it.generated;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.objectweb.asm.ClassWriter;

/**
 * A {@link ClassWriter} computing frames from a fixed table of the few types generated code
 * uses, so that no class is ever loaded (ASM's default loads both types to find their common
 * super class). A type outside the table is a generator bug and says so.
 */
final class FixedHierarchyClassWriter extends ClassWriter {
    private static final Map<String, String> SUPER_CLASSES = Map.of(
            "java/lang/ArithmeticException", "java/lang/RuntimeException",
            "java/lang/IllegalStateException", "java/lang/RuntimeException",
            "java/lang/RuntimeException", "java/lang/Exception",
            "java/lang/Exception", "java/lang/Throwable",
            "java/lang/Throwable", "java/lang/Object",
            "java/lang/String", "java/lang/Object",
            "java/lang/StringBuilder", "java/lang/Object",
            "java/util/ArrayList", "java/lang/Object");

    private final String generatedClass;
    private final String generatedSuperClass;

    FixedHierarchyClassWriter(int flags, String generatedClass, String generatedSuperClass) {
        super(flags);
        this.generatedClass = generatedClass;
        this.generatedSuperClass = generatedSuperClass;
    }

    @Override
    protected String getCommonSuperClass(String a, String b) {
        List<String> ancestorsOfA = ancestors(a);
        for (String candidate : ancestors(b)) {
            if (ancestorsOfA.contains(candidate)) {
                return candidate;
            }
        }
        return "java/lang/Object";
    }

    /** The type itself, then its super classes up to {@code java/lang/Object}. */
    private List<String> ancestors(String type) {
        List<String> chain = new ArrayList<>();
        for (String t = type; t != null; t = superClass(t)) {
            chain.add(t);
        }
        return chain;
    }

    private String superClass(String type) {
        if (type.equals("java/lang/Object")) {
            return null;
        }
        if (type.equals(generatedClass)) {
            return generatedSuperClass;
        }
        String s = SUPER_CLASSES.get(type);
        if (s == null) {
            throw new IllegalStateException("generator bug: frames need the super class of " + type
                    + ", which the fixed hierarchy lacks");
        }
        return s;
    }
}
