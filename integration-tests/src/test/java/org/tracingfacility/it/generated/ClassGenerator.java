package org.tracingfacility.it.generated;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * One random class from one seed: static methods {@code (int, long, double)} returning each
 * kind of value, two constructors whose chaining arguments branch, and {@code probe()} to read
 * what the constructors stored. The class file version is drawn too: 48 and 49 (no stack map
 * frames, the type-inferring verifier), 50, 52 and 61, whose frames ASM computes with a
 * fixed hierarchy ({@link FixedHierarchyClassWriter}). Before 50, finally blocks may be
 * {@code jsr}/{@code ret} subroutines.
 */
public final class ClassGenerator implements Opcodes {
    /** {@code static long sink}: what {@code void} methods (and all others) leave behind. */
    public static final String SINK = "sink";
    /** The static methods' descriptor, minus the return type. */
    public static final String PARAMETERS = "(IJD";
    /** The chaining constructor: {@code this(...)} to the main one; its last int is unused. */
    public static final String CHAINING_CONSTRUCTOR = "(IJDI)V";
    public static final String MAIN_CONSTRUCTOR = "(IJD)V";

    private static final int[] VERSIONS = {V1_4, V1_5, V1_6, V1_8, V17};
    private static final Type[] RETURN_TYPES = {
        Type.INT_TYPE, Type.LONG_TYPE, Type.DOUBLE_TYPE, Type.getType(String.class), Type.VOID_TYPE};
    private static final String SUPER = "java/util/ArrayList";
    private static final int STATEMENTS_PER_METHOD = 12;

    /** A generated class: its binary name, bytes, version and static methods' names and descriptors. */
    public static final class Generated {
        public final long seed;
        public final String name;
        public final int version;
        public final byte[] bytes;
        public final List<String[]> staticMethods;

        Generated(long seed, String name, int version, byte[] bytes, List<String[]> staticMethods) {
            this.seed = seed;
            this.name = name;
            this.version = version;
            this.bytes = bytes;
            this.staticMethods = staticMethods;
        }
    }

    private ClassGenerator() {}

    /** The class of {@code seed}, with {@code methods} static methods; the same seed gives the same bytes. */
    public static Generated generate(long seed, int methods) {
        Random random = new Random(scramble(seed));
        String internalName = "gen/C" + Long.toUnsignedString(seed, 36);
        int version = VERSIONS[random.nextInt(VERSIONS.length)];
        boolean frames = version >= V1_6;
        ClassWriter cw = new FixedHierarchyClassWriter(frames ? ClassWriter.COMPUTE_FRAMES : ClassWriter.COMPUTE_MAXS,
                internalName, SUPER);
        cw.visit(version, ACC_PUBLIC | ACC_SUPER, internalName, null, SUPER, null);
        cw.visitField(ACC_PUBLIC | ACC_STATIC, SINK, "J", null, null).visitEnd();
        cw.visitField(ACC_PRIVATE, "i", "I", null, null).visitEnd();
        cw.visitField(ACC_PRIVATE, "l", "J", null, null).visitEnd();

        List<String[]> staticMethods = new ArrayList<>();
        for (int m = 0; m < methods; m++) {
            Type returnType = RETURN_TYPES[random.nextInt(RETURN_TYPES.length)];
            String name = "m" + m;
            String descriptor = PARAMETERS + ")" + returnType.getDescriptor();
            MethodVisitor mv = cw.visitMethod(ACC_PUBLIC | ACC_STATIC, name, descriptor, null, null);
            mv.visitCode();
            CodeGenerator code = new CodeGenerator(random, mv, Locals.after(0), internalName, returnType, STATEMENTS_PER_METHOD, !frames);
            code.prologue();
            code.statements(0);
            code.returnValue();
            mv.visitMaxs(0, 0);
            mv.visitEnd();
            staticMethods.add(new String[] {name, descriptor});
        }
        mainConstructor(cw, random, internalName, !frames);
        chainingConstructor(cw, random, internalName, !frames);
        probe(cw, internalName);
        cw.visitEnd();
        return new Generated(seed, internalName.replace('/', '.'), version, cw.toByteArray(), staticMethods);
    }

    /**
     * {@code C(int, long, double)}: {@code super(capacity)} where the capacity is computed with
     * branches, a switch, a {@code new} object and a static call while {@code this} is
     * uninitialized; then a body of statements that stores the fields.
     */
    private static void mainConstructor(ClassWriter cw, Random random, String owner, boolean subroutines) {
        MethodVisitor mv = cw.visitMethod(ACC_PUBLIC, "<init>", MAIN_CONSTRUCTOR, null, null);
        mv.visitCode();
        mv.visitVarInsn(ALOAD, 0);
        CodeGenerator arguments = new CodeGenerator(random, mv, Locals.parametersOnly(1), owner, Type.VOID_TYPE, 0, false);
        branchingIntArgument(mv, random, arguments);
        mv.visitMethodInsn(INVOKESTATIC, "java/lang/Math", "abs", "(I)I", false);
        mv.visitIntInsn(SIPUSH, 256);
        mv.visitInsn(IREM); // abs(MIN_VALUE) is negative: the capacity is in (-256, 256)
        mv.visitMethodInsn(INVOKESTATIC, "java/lang/Math", "abs", "(I)I", false);
        mv.visitMethodInsn(INVOKESPECIAL, SUPER, "<init>", "(I)V", false);
        CodeGenerator body = new CodeGenerator(random, mv, Locals.after(1), owner, Type.VOID_TYPE, STATEMENTS_PER_METHOD / 2, subroutines);
        body.prologue();
        mv.visitVarInsn(ALOAD, 0);
        body.intExpression(0);
        mv.visitFieldInsn(PUTFIELD, owner, "i", "I");
        body.statements(1);
        mv.visitVarInsn(ALOAD, 0);
        body.longExpression(0);
        mv.visitFieldInsn(PUTFIELD, owner, "l", "J");
        mv.visitInsn(RETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
    }

    /** {@code C(int, long, double, int)}: {@code this(...)} with arguments that branch. */
    private static void chainingConstructor(ClassWriter cw, Random random, String owner, boolean subroutines) {
        MethodVisitor mv = cw.visitMethod(ACC_PUBLIC, "<init>", CHAINING_CONSTRUCTOR, null, null);
        mv.visitCode();
        Label start = new Label();
        mv.visitLabel(start);
        mv.visitVarInsn(ALOAD, 0);
        CodeGenerator arguments = new CodeGenerator(random, mv, Locals.parametersOnly(1), owner, Type.VOID_TYPE, 0, false);
        branchingIntArgument(mv, random, arguments);
        Label otherwise = new Label();
        Label end = new Label();
        arguments.condition(otherwise); // this(..., cond ? a : b, ...)
        arguments.longExpression(1);
        mv.visitJumpInsn(GOTO, end);
        mv.visitLabel(otherwise);
        arguments.longExpression(1);
        mv.visitLabel(end);
        arguments.doubleExpression(1);
        mv.visitMethodInsn(INVOKESPECIAL, owner, "<init>", MAIN_CONSTRUCTOR, false);
        CodeGenerator body = new CodeGenerator(random, mv, Locals.after(1), owner, Type.VOID_TYPE, STATEMENTS_PER_METHOD / 3, subroutines);
        body.prologue();
        body.statements(1);
        mv.visitInsn(RETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
    }

    /** An int argument: a ternary, a switch expression, or {@code new StringBuilder().append(x).length()}. */
    private static void branchingIntArgument(MethodVisitor mv, Random random, CodeGenerator arguments) {
        switch (random.nextInt(3)) {
            case 0:
                arguments.ternaryInt(1);
                break;
            case 1:
                arguments.switchExpression(1);
                break;
            default:
                mv.visitTypeInsn(NEW, "java/lang/StringBuilder");
                mv.visitInsn(DUP);
                mv.visitMethodInsn(INVOKESPECIAL, "java/lang/StringBuilder", "<init>", "()V", false);
                arguments.ternaryInt(1);
                mv.visitMethodInsn(INVOKEVIRTUAL, "java/lang/StringBuilder", "append", "(I)Ljava/lang/StringBuilder;", false);
                mv.visitMethodInsn(INVOKEVIRTUAL, "java/lang/StringBuilder", "length", "()I", false);
                break;
        }
    }

    /** {@code long probe()}: {@code i * 31 + l}, what the constructors left. */
    private static void probe(ClassWriter cw, String owner) {
        MethodVisitor mv = cw.visitMethod(ACC_PUBLIC, "probe", "()J", null, null);
        mv.visitCode();
        mv.visitVarInsn(ALOAD, 0);
        mv.visitFieldInsn(GETFIELD, owner, "i", "I");
        mv.visitInsn(I2L);
        mv.visitLdcInsn(31L);
        mv.visitInsn(LMUL);
        mv.visitVarInsn(ALOAD, 0);
        mv.visitFieldInsn(GETFIELD, owner, "l", "J");
        mv.visitInsn(LADD);
        mv.visitInsn(LRETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
    }

    /**
     * A seed whose bits all depend on every bit of {@code seed} (Stafford's mix 13): the first
     * draws of {@link Random}s with neighbouring seeds are otherwise nearly the same.
     */
    private static long scramble(long seed) {
        long z = seed;
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
