package org.tracingfacility.bench.asm;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;

/**
 * {@code COMPUTE_FRAMES} without loading classes: every merge of two
 * different reference types is declared {@code java/lang/Object}. The fastest
 * frame computation ASM can do (a correct one needs the class hierarchy), so
 * the baseline is, if anything, flattered; some frames it writes would not verify.
 */
final class ObjectOnlyClassWriter extends ClassWriter {
    ObjectOnlyClassWriter(ClassReader reader) {
        super(reader, ClassWriter.COMPUTE_FRAMES);
    }

    @Override
    protected String getCommonSuperClass(String type1, String type2) {
        return "java/lang/Object";
    }
}
