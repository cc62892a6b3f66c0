package org.tracingfacility.it.generated;

import java.util.ArrayList;
import java.util.List;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.analysis.Analyzer;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.BasicValue;
import org.objectweb.asm.tree.analysis.SimpleVerifier;

/**
 * ASM's data-flow verifier ({@link SimpleVerifier}) over every method of a class: a second
 * opinion beside HotSpot's that names the method and instruction. Types it must compare are
 * loaded through the given loader.
 */
public final class AsmCheck {
    private AsmCheck() {}

    /** One line per method ASM rejects: {@code name descriptor: what is wrong}. Empty when all pass. */
    public static List<String> problems(byte[] classFile, ClassLoader loader) {
        ClassNode node = new ClassNode();
        new ClassReader(classFile).accept(node, ClassReader.SKIP_DEBUG);
        List<Type> interfaces = new ArrayList<>();
        node.interfaces.forEach(i -> interfaces.add(Type.getObjectType(i)));
        List<String> problems = new ArrayList<>();
        for (MethodNode method : node.methods) {
            SimpleVerifier verifier = new SimpleVerifier(Opcodes.ASM9, Type.getObjectType(node.name),
                    node.superName == null ? null : Type.getObjectType(node.superName), interfaces,
                    (node.access & Opcodes.ACC_INTERFACE) != 0) {};
            verifier.setClassLoader(loader);
            try {
                new Analyzer<BasicValue>(verifier).analyze(node.name, method);
            } catch (AnalyzerException e) {
                problems.add(method.name + method.desc + ": " + e.getMessage());
            }
        }
        return problems;
    }
}
