package org.tracingfacility.it.link;

import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Classes that no verifier may accept ({@code iconst_0; lreturn}), one per verifier: class
 * version 52 goes to the type-checking verifier, version 48 to the type-inferring one. Fed to
 * the same loading and linking as the classes under test, they prove that this linking
 * really verifies.
 */
final class BrokenClasses {
    private BrokenClasses() {}

    /** {@code null} when the JVM rejects both with a VerifyError, else what went wrong. */
    static String checkTheVerifierRejectsThem() {
        for (int version : new int[] {Opcodes.V1_8, Opcodes.V1_4}) {
            String name = "org.tracingfacility.it.link.Broken" + version;
            Definer definer = new Definer(name, broken(name, version));
            try {
                Class.forName(name, false, definer).getDeclaredMethods();
                return "a class of version " + version + " returning an int with lreturn was linked: "
                        + "this JVM does not verify (-Xverify:none or -XX:-BytecodeVerificationRemote?)";
            } catch (VerifyError expected) {
                // the verifier is on
            } catch (Throwable t) {
                return "the broken class of version " + version + " failed with " + t + ", not a VerifyError";
            }
        }
        return null;
    }

    private static byte[] broken(String name, int version) {
        ClassWriter cw = new ClassWriter(0);
        cw.visit(version, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, name.replace('.', '/'), null, "java/lang/Object", null);
        MethodVisitor mv = cw.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "answer", "()J", null, null);
        mv.visitCode();
        mv.visitInsn(Opcodes.ICONST_0);
        mv.visitInsn(Opcodes.LRETURN);
        mv.visitMaxs(2, 0);
        mv.visitEnd();
        cw.visitEnd();
        return cw.toByteArray();
    }

    /** Defines one class from bytes; everything else from the platform loader. */
    private static final class Definer extends ClassLoader {
        private final String name;
        private final byte[] bytes;

        Definer(String name, byte[] bytes) {
            super(ClassLoader.getPlatformClassLoader());
            this.name = name;
            this.bytes = bytes;
        }

        @Override
        protected Class<?> findClass(String requested) throws ClassNotFoundException {
            if (!requested.equals(name)) {
                throw new ClassNotFoundException(requested);
            }
            return defineClass(name, bytes, 0, bytes.length);
        }
    }
}
