package org.tracingfacility.runtime.timing;

import java.io.ByteArrayOutputStream;
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
 * The counter's frequency is read by the same class, with the same direct calls: a method
 * handle's first invocation spins classes of the JDK's own, milliseconds of a traced JVM's
 * start.
 *
 * <p>The counter is linked at the first call: where {@code jdk.jfr.internal} is not exported
 * to TF, that call throws {@code IllegalAccessError} and the clock stays
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

    /** A new reader of JFR's tick counter; its first call fails if the counter is out of reach. */
    static TimingClock.TickReader jfrCounter() throws Throwable {
        MethodHandles.Lookup lookup = MethodHandles.lookup();
        Class<?> defined = lookup.defineClass(jfrCounterClass());
        return (TimingClock.TickReader) lookup.findConstructor(defined, MethodType.methodType(void.class)).invoke();
    }

    /**
     * The class file: {@code final class JfrTickReader implements TimingClock.TickReader},
     * a constructor, {@code read()} returning {@code JVM.counterTime()}, and the frequency the
     * two ways JDKs declare it ({@link TimingClock.TickReader}). Written byte by byte into a
     * plain stream: {@code DataOutputStream} builds a {@code VarHandle} per primitive type on
     * first use, milliseconds of the start.
     */
    static byte[] jfrCounterClass() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        u4(out, 0xCAFEBABE);
        u2(out, 0);
        u2(out, MAJOR_VERSION);
        u2(out, 29); // constant pool count: entries 1 to 28
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
        utf8(out, "getTicksFrequency"); // 19
        nameAndType(out, 19, 14); // 20
        methodRef(out, 12, 20); // 21: JVM.getTicksFrequency()J, called static
        utf8(out, "getJVM"); // 22
        utf8(out, "()Ljdk/jfr/internal/JVM;"); // 23
        nameAndType(out, 22, 23); // 24
        methodRef(out, 12, 24); // 25: JVM.getJVM()
        // The same method again, for invokevirtual: an entry of its own, so that the JVM's
        // record of the static call's failure (JDK 17) is not this call's.
        methodRef(out, 12, 20); // 26: JVM.getTicksFrequency()J, called on the singleton
        utf8(out, "ticksPerSecond"); // 27
        utf8(out, "ticksPerSecondOfSingleton"); // 28
        u2(out, ACC_FINAL | ACC_SUPER);
        u2(out, 2);
        u2(out, 4);
        u2(out, 1); // interfaces
        u2(out, 6);
        u2(out, 0); // fields
        u2(out, 4); // methods
        // <init>: aload_0; invokespecial Object.<init>; return
        method(out, 0, 7, 8, 1, 1, new byte[] {0x2a, (byte) 0xb7, 0, 10, (byte) 0xb1});
        // read: invokestatic JVM.counterTime; lreturn
        method(out, ACC_PUBLIC, 17, 14, 2, 1, new byte[] {(byte) 0xb8, 0, 16, (byte) 0xad});
        // ticksPerSecond: invokestatic JVM.getTicksFrequency; lreturn
        method(out, ACC_PUBLIC, 27, 14, 2, 1, new byte[] {(byte) 0xb8, 0, 21, (byte) 0xad});
        // ticksPerSecondOfSingleton: invokestatic JVM.getJVM; invokevirtual getTicksFrequency; lreturn
        method(out, ACC_PUBLIC, 28, 14, 2, 1, new byte[] {(byte) 0xb8, 0, 25, (byte) 0xb6, 0, 26, (byte) 0xad});
        u2(out, 0); // class attributes
        return out.toByteArray();
    }

    // Big-endian items of a class file. The strings given are ASCII, whose modified UTF-8 is themselves.

    private static void u2(ByteArrayOutputStream out, int value) {
        out.write(value >>> 8);
        out.write(value);
    }

    private static void u4(ByteArrayOutputStream out, int value) {
        u2(out, value >>> 16);
        u2(out, value);
    }

    private static void utf8(ByteArrayOutputStream out, String text) {
        out.write(CONSTANT_UTF8);
        u2(out, text.length());
        for (int i = 0; i < text.length(); i++) {
            out.write(text.charAt(i));
        }
    }

    private static void classRef(ByteArrayOutputStream out, int name) {
        out.write(CONSTANT_CLASS);
        u2(out, name);
    }

    private static void nameAndType(ByteArrayOutputStream out, int name, int descriptor) {
        out.write(CONSTANT_NAME_AND_TYPE);
        u2(out, name);
        u2(out, descriptor);
    }

    private static void methodRef(ByteArrayOutputStream out, int owner, int nameAndType) {
        out.write(CONSTANT_METHODREF);
        u2(out, owner);
        u2(out, nameAndType);
    }

    /** A method with one attribute, its Code (entry 18): no exception table, no attributes of its own. */
    private static void method(ByteArrayOutputStream out, int access, int name, int descriptor, int maxStack,
            int maxLocals, byte[] code) {
        u2(out, access);
        u2(out, name);
        u2(out, descriptor);
        u2(out, 1);
        u2(out, 18);
        u4(out, 2 + 2 + 4 + code.length + 2 + 2);
        u2(out, maxStack);
        u2(out, maxLocals);
        u4(out, code.length);
        out.write(code, 0, code.length);
        u2(out, 0); // exception table
        u2(out, 0); // attributes
    }
}
