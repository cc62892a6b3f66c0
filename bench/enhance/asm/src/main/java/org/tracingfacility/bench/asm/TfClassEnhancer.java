package org.tracingfacility.bench.asm;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.objectweb.asm.AnnotationVisitor;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * The class-level half of the baseline: monitors every method with code (not
 * bridges or synthetic methods, as TF's {@code -filter '**'}), adds the holder
 * field, the {@code <clinit>} registration and {@code @TFEnhanced}.
 *
 * <p>One difference from TF, forced by a one-pass visitor: the method names are
 * only known at the end of the class, so the registration lives in a synthetic
 * {@code __tf$register()} that {@code <clinit>} calls first, rather than inline.
 */
final class TfClassEnhancer extends ClassVisitor {
    static final String REGISTER_METHOD = "__tf$register";
    private static final int ACC_SKIPPED =
            Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE | Opcodes.ACC_BRIDGE | Opcodes.ACC_SYNTHETIC;

    private String owner;
    private boolean isInterface;
    private boolean indyAvailable;
    /** {@code java/lang/Object}: its constructor calls no other. */
    private boolean isRoot;
    private boolean hasStaticInitializer;
    private final List<String> names = new ArrayList<>();
    private final List<String> descriptors = new ArrayList<>();

    TfClassEnhancer(ClassVisitor next) {
        super(Opcodes.ASM9, next);
    }

    /** Whether any method was monitored; if not, the class is left as it was. */
    boolean monitoredAny() {
        return !names.isEmpty();
    }

    @Override
    public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
        owner = name;
        isInterface = (access & Opcodes.ACC_INTERFACE) != 0;
        indyAvailable = (version & 0xFFFF) >= Opcodes.V1_7;
        isRoot = superName == null;
        super.visit(version, access, name, signature, superName, interfaces);
        AnnotationVisitor mark = super.visitAnnotation(Protocol.TF_ENHANCED, true);
        mark.visit("stage", Protocol.STAGE_TRACEGEN);
        mark.visit("fingerprint", "asm-baseline");
        mark.visitEnd();
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
        MethodVisitor next = super.visitMethod(access, name, descriptor, signature, exceptions);
        if ((access & ACC_SKIPPED) != 0) {
            return next;
        }
        int id = names.size();
        names.add(name);
        descriptors.add(descriptor);
        Runnable beforeMonitoring = () -> { };
        if (name.equals("<clinit>")) {
            hasStaticInitializer = true;
            beforeMonitoring = () -> next.visitMethodInsn(Opcodes.INVOKESTATIC, owner, REGISTER_METHOD, "()V", isInterface);
        }
        boolean callsNoConstructor = isRoot && name.equals("<init>");
        return new MonitoredMethodAdapter(next, access, name, descriptor, id, indyAvailable, owner, beforeMonitoring,
                callsNoConstructor);
    }

    @Override
    public void visitEnd() {
        if (monitoredAny()) {
            int visibility = isInterface ? Opcodes.ACC_PUBLIC : Opcodes.ACC_PRIVATE;
            super.visitField(visibility | Opcodes.ACC_STATIC | Opcodes.ACC_FINAL | Opcodes.ACC_SYNTHETIC,
                    Protocol.HOLDER_FIELD, Protocol.HOLDER_DESCRIPTOR, Protocol.HOLDER_SIGNATURE, null).visitEnd();
            writeRegistration(visibility);
            if (!hasStaticInitializer) {
                MethodVisitor clinit = super.visitMethod(Opcodes.ACC_STATIC, "<clinit>", "()V", null, null);
                clinit.visitCode();
                clinit.visitMethodInsn(Opcodes.INVOKESTATIC, owner, REGISTER_METHOD, "()V", isInterface);
                clinit.visitInsn(Opcodes.RETURN);
                clinit.visitMaxs(0, 0);
                clinit.visitEnd();
            }
        }
        super.visitEnd();
    }

    /** holder = new SynchronizedHolder(); registerClass(C.class, names, {Filtered.class}, {holder}) */
    private void writeRegistration(int visibility) {
        MethodVisitor m = super.visitMethod(visibility | Opcodes.ACC_STATIC | Opcodes.ACC_SYNTHETIC,
                REGISTER_METHOD, "()V", null, null);
        m.visitCode();
        m.visitTypeInsn(Opcodes.NEW, Protocol.SYNCHRONIZED_HOLDER);
        m.visitInsn(Opcodes.DUP);
        m.visitMethodInsn(Opcodes.INVOKESPECIAL, Protocol.SYNCHRONIZED_HOLDER, "<init>", "()V", false);
        m.visitFieldInsn(Opcodes.PUTSTATIC, owner, Protocol.HOLDER_FIELD, Protocol.HOLDER_DESCRIPTOR);

        m.visitLdcInsn(Type.getObjectType(owner));
        pushText(m, joined(tracingNames()));
        m.visitInsn(Opcodes.ICONST_1);
        m.visitTypeInsn(Opcodes.ANEWARRAY, "java/lang/Class");
        m.visitInsn(Opcodes.DUP);
        m.visitInsn(Opcodes.ICONST_0);
        m.visitLdcInsn(Protocol.FILTERED_GROUP_TYPE);
        m.visitInsn(Opcodes.AASTORE);
        m.visitInsn(Opcodes.ICONST_1);
        m.visitTypeInsn(Opcodes.ANEWARRAY, Protocol.SYNCHRONIZED_HOLDER);
        m.visitInsn(Opcodes.DUP);
        m.visitInsn(Opcodes.ICONST_0);
        m.visitFieldInsn(Opcodes.GETSTATIC, owner, Protocol.HOLDER_FIELD, Protocol.HOLDER_DESCRIPTOR);
        m.visitInsn(Opcodes.AASTORE);
        m.visitMethodInsn(Opcodes.INVOKESTATIC, Protocol.SUPPORT, "registerClass", Protocol.REGISTER_CLASS_DESCRIPTOR, false);
        m.visitInsn(Opcodes.RETURN);
        m.visitMaxs(0, 0);
        m.visitEnd();
    }

    /** Method names, overloads told apart by their parameter types as TF does: {@code write(int)}. */
    private List<String> tracingNames() {
        Map<String, Integer> counts = new HashMap<>();
        for (String name : names) {
            counts.merge(name, 1, Integer::sum);
        }
        List<String> result = new ArrayList<>(names.size());
        for (int i = 0; i < names.size(); i++) {
            String name = names.get(i);
            if (counts.get(name) == 1) {
                result.add(name);
                continue;
            }
            StringBuilder text = new StringBuilder(name).append('(');
            Type[] parameters = Type.getArgumentTypes(descriptors.get(i));
            for (int p = 0; p < parameters.length; p++) {
                text.append(p == 0 ? "" : ",").append(parameters[p].getClassName());
            }
            result.add(text.append(')').toString());
        }
        return result;
    }

    /** The tracing names as TF's registerClass takes them: {@code 4:self8:toString}. */
    private static String joined(List<String> names) {
        StringBuilder joined = new StringBuilder();
        for (String name : names) {
            joined.append(name.length()).append(':').append(name);
        }
        return joined.toString();
    }

    /** Pushes {@code text}: one ldc, or pieces that fit a constant joined by String.concat. */
    private static void pushText(MethodVisitor m, String text) {
        int start = 0;
        boolean first = true;
        do {
            int end = start;
            int bytes = 0;
            while (end < text.length()) {
                char c = text.charAt(end);
                int size = c != 0 && c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
                if (bytes + size > 65_535 || Character.isHighSurrogate(c) && bytes + 6 > 65_535) {
                    break;
                }
                bytes += size;
                end++;
            }
            m.visitLdcInsn(text.substring(start, end));
            if (!first) {
                m.visitMethodInsn(Opcodes.INVOKEVIRTUAL, "java/lang/String", "concat",
                        "(Ljava/lang/String;)Ljava/lang/String;", false);
            }
            first = false;
            start = end;
        } while (start < text.length());
    }
}
