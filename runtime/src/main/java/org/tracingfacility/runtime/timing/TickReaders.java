package org.tracingfacility.runtime.timing;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Defines, in this package, the one {@link TimingClock.TickReader} that reads JFR's tick
 * counter: a class whose {@code read()} is {@code invokestatic jdk/jfr/internal/JVM.counterTime()J;
 * lreturn}. javac cannot write that call here (tf-runtime compiles with {@code --release 11},
 * which does not let it name a package the JDK does not export), and a method handle would
 * run {@code java.lang.invoke}'s invokers at every read, JDK code the agent may trace. A
 * class in TF's package is never traced, the counter is a native without bytecode (a C2
 * intrinsic), and the reader is a constant of {@link TimingClock}, so C2 inlines the call.
 *
 * <p>The counter is linked at the first read: where {@code jdk.jfr.internal} is not exported
 * to TF, that read throws {@code IllegalAccessError} and the clock stays
 * {@code System.nanoTime()}.
 */
final class TickReaders {
    /** The defined class's name, in this package (a lookup defines classes in its own). */
    static final String JFR_COUNTER = "org/tracingfacility/runtime/timing/JfrTickReader";

    private static final int ACC_PUBLIC = 0x0001;
    private static final int ACC_FINAL = 0x0010;
    private static final int ACC_SUPER = 0x0020;
    private static final int CONSTANT_UTF8 = 1;
    private static final int CONSTANT_CLASS = 7;
    private static final int CONSTANT_METHODREF = 10;
    private static final int CONSTANT_NAME_AND_TYPE = 12;
    /** Java 8's class files: straight-line code needs no stack map table. */
    private static final int MAJOR_VERSION = 52;

    private TickReaders() {
    }

    /** A new reader of JFR's tick counter; its first read fails if the counter is out of reach. */
    static TimingClock.TickReader jfrCounter() throws Throwable {
        MethodHandles.Lookup lookup = MethodHandles.lookup();
        Class<?> defined = lookup.defineClass(jfrCounterClass());
        return (TimingClock.TickReader) lookup.findConstructor(defined, MethodType.methodType(void.class)).invoke();
    }

    /**
     * The class file: {@code final class JfrTickReader implements TimingClock.TickReader},
     * a constructor and {@code public long read() { return JVM.counterTime(); }}.
     */
    static byte[] jfrCounterClass() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(0xCAFEBABE);
            out.writeShort(0);
            out.writeShort(MAJOR_VERSION);
            out.writeShort(19); // constant pool count: entries 1 to 18
            utf8(out, JFR_COUNTER); // 1
            classRef(out, 1); // 2: this class
            utf8(out, "java/lang/Object"); // 3
            classRef(out, 3); // 4: super
            utf8(out, "org/tracingfacility/runtime/timing/TimingClock$TickReader"); // 5
            classRef(out, 5); // 6: the interface
            utf8(out, "<init>"); // 7
            utf8(out, "()V"); // 8
            nameAndType(out, 7, 8); // 9
            methodRef(out, 4, 9); // 10: Object.<init>()V
            utf8(out, "jdk/jfr/internal/JVM"); // 11
            classRef(out, 11); // 12
            utf8(out, "counterTime"); // 13
            utf8(out, "()J"); // 14
            nameAndType(out, 13, 14); // 15
            methodRef(out, 12, 15); // 16: JVM.counterTime()J
            utf8(out, "read"); // 17
            utf8(out, "Code"); // 18
            out.writeShort(ACC_FINAL | ACC_SUPER);
            out.writeShort(2);
            out.writeShort(4);
            out.writeShort(1); // interfaces
            out.writeShort(6);
            out.writeShort(0); // fields
            out.writeShort(2); // methods
            // <init>: aload_0; invokespecial Object.<init>; return
            method(out, 0, 7, 8, 1, 1, new byte[] {0x2a, (byte) 0xb7, 0, 10, (byte) 0xb1});
            // read: invokestatic JVM.counterTime; lreturn
            method(out, ACC_PUBLIC, 17, 14, 2, 1, new byte[] {(byte) 0xb8, 0, 16, (byte) 0xad});
            out.writeShort(0); // class attributes
        } catch (IOException e) {
            throw new AssertionError(e); // a byte array's stream does not fail
        }
        return bytes.toByteArray();
    }

    private static void utf8(DataOutputStream out, String text) throws IOException {
        out.writeByte(CONSTANT_UTF8);
        out.writeUTF(text); // the class file's Utf8: a length, then modified UTF-8
    }

    private static void classRef(DataOutputStream out, int name) throws IOException {
        out.writeByte(CONSTANT_CLASS);
        out.writeShort(name);
    }

    private static void nameAndType(DataOutputStream out, int name, int descriptor) throws IOException {
        out.writeByte(CONSTANT_NAME_AND_TYPE);
        out.writeShort(name);
        out.writeShort(descriptor);
    }

    private static void methodRef(DataOutputStream out, int owner, int nameAndType) throws IOException {
        out.writeByte(CONSTANT_METHODREF);
        out.writeShort(owner);
        out.writeShort(nameAndType);
    }

    /** A method with one attribute, its Code: no exception table, no attributes of its own. */
    private static void method(DataOutputStream out, int access, int name, int descriptor, int maxStack,
            int maxLocals, byte[] code) throws IOException {
        out.writeShort(access);
        out.writeShort(name);
        out.writeShort(descriptor);
        out.writeShort(1);
        out.writeShort(18);
        out.writeInt(2 + 2 + 4 + code.length + 2 + 2);
        out.writeShort(maxStack);
        out.writeShort(maxLocals);
        out.writeInt(code.length);
        out.write(code);
        out.writeShort(0); // exception table
        out.writeShort(0); // attributes
    }
}
