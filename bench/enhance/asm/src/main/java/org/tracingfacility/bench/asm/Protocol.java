package org.tracingfacility.bench.asm;

import org.objectweb.asm.Handle;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/** The names TF's generated code uses (rust-core/src/protocol.rs), as ASM types. */
final class Protocol {
    static final String FILTERED_GROUP = "org/tracingfacility/annotation/Filtered";
    static final String TF_ENHANCED = "Lorg/tracingfacility/annotation/TFEnhanced;";
    static final String METHOD_MONITOR = "org/tracingfacility/runtime/MethodMonitor";
    static final String SYNCHRONIZED_HOLDER = "org/tracingfacility/runtime/support/SynchronizedHolder";
    static final String SUPPORT = "org/tracingfacility/runtime/support/EnhancedCodeSupport";

    static final String HOLDER_FIELD = "__tf$holder$0";
    static final String HOLDER_DESCRIPTOR = "L" + SYNCHRONIZED_HOLDER + ";";
    static final String HOLDER_SIGNATURE = "L" + SYNCHRONIZED_HOLDER + "<L" + METHOD_MONITOR + ";>;";

    static final String REGISTER_CLASS_DESCRIPTOR =
            "(Ljava/lang/Class;Ljava/lang/String;[Ljava/lang/Class;[L" + SYNCHRONIZED_HOLDER + ";)V";
    static final String MONITOR_DESCRIPTOR = "()L" + METHOD_MONITOR + ";";
    static final Handle LINK_MONITOR = new Handle(Opcodes.H_INVOKESTATIC, SUPPORT, "linkMonitor",
            "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/invoke/MethodType;Ljava/lang/Class;)"
                    + "Ljava/lang/invoke/CallSite;", false);
    static final Type FILTERED_GROUP_TYPE = Type.getObjectType(FILTERED_GROUP);
    static final String THROWN_DESCRIPTOR =
            "(Ljava/lang/Throwable;Ljava/lang/Throwable;L" + METHOD_MONITOR + ";I)V";

    /** The token protocol: enter returns a long that the invocation's one exit receives. */
    static final String ENTER = "enterWithToken";
    static final String ENTER_DESCRIPTOR = "(I[Ljava/lang/Object;)J";
    static final String EXIT = "exitWithToken";
    static final String EXIT_VOID_DESCRIPTOR = "(IJ)V";

    /** The exit of a method returning a value, and the end by a throwable (EnhancedCodeSupport). */
    static final String RETURNED = "returned";
    static final String FAILED = "failed";
    static final String FAILED_WITH_RESULT = "failedWithResult";
    static final String FAILED_DESCRIPTOR = "(Ljava/lang/Throwable;Ljava/lang/Throwable;L" + METHOD_MONITOR + ";IJ)V";

    /** {@code returned}'s descriptor for a result of type {@code result} (references as Object). */
    static String returnedDescriptor(Type result) {
        String value = result.getSort() >= Type.ARRAY ? "Ljava/lang/Object;" : result.getDescriptor();
        return "(L" + METHOD_MONITOR + ";I" + value + "J)V";
    }

    /** Stage value of {@code @TFEnhanced(stage = 2)}: schema and tracegen applied. */
    static final int STAGE_TRACEGEN = 2;

    private Protocol() {
    }
}
