package org.tracingfacility.bench.asm;

import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.commons.AdviceAdapter;

/**
 * Injects TF's tracegen code into one method: the monitor lookup and
 * {@code enterWithToken} at the start (in constructors after {@code super(...)}), its
 * token kept in a {@code long} local, {@code exitWithToken} (void) or
 * {@code EnhancedCodeSupport.returned} with that token before every return, {@code thrown}
 * before every explicit throw, and a catch-all handler calling {@code EnhancedCodeSupport.failed}
 * (or {@code failedWithResult}).
 *
 * <p>The injected instructions go straight to {@code mv}: passed through
 * AdviceAdapter's own visit methods they would be taken for the method's code
 * (its constructor stack simulation, and a return or throw to instrument).
 */
final class MonitoredMethodAdapter extends AdviceAdapter {
    private final int id;
    private final boolean indyAvailable;
    private final String owner;
    private final Runnable beforeMonitoring;
    private final Label tryStart = new Label();
    private int monitor;
    private int reported;
    private int token;
    private boolean entered;

    /**
     * @param beforeMonitoring emits code that must run first (a {@code <clinit>}'s registration)
     * @param callsNoConstructor a constructor that calls no other ({@code java/lang/Object}'s),
     *     monitored from its first instruction as TF does: {@code AdviceAdapter} takes every
     *     {@code <init>} for one whose entry follows a {@code super(...)} call, and this one has none,
     *     so it is given another name
     */
    MonitoredMethodAdapter(MethodVisitor next, int access, String name, String descriptor, int id,
                           boolean indyAvailable, String owner, Runnable beforeMonitoring,
                           boolean callsNoConstructor) {
        super(Opcodes.ASM9, next, access, callsNoConstructor ? "<init> calling no other" : name, descriptor);
        this.id = id;
        this.indyAvailable = indyAvailable;
        this.owner = owner;
        this.beforeMonitoring = beforeMonitoring;
    }

    @Override
    protected void onMethodEnter() {
        entered = true;
        beforeMonitoring.run();
        monitor = newLocal(Type.getObjectType(Protocol.METHOD_MONITOR));
        reported = newLocal(Type.getType(Throwable.class));
        token = newLocal(Type.LONG_TYPE);
        loadMonitor();
        storeLocal(monitor);
        mv.visitInsn(ACONST_NULL);
        storeLocal(reported);
        mv.visitInsn(LCONST_0); // set on both paths into the body
        storeLocal(token);

        // if (mm != null) token = mm.wantsArguments() ? mm.enterWithToken(id, new Object[]{args...})
        //                                            : mm.enterWithToken(id, NO_ARGS)
        // (no parameters: NO_ARGS without asking)
        Label skip = new Label();
        loadLocal(monitor);
        mv.visitJumpInsn(IFNULL, skip);
        if (Type.getArgumentTypes(methodDesc).length > 0) {
            Label unwanted = new Label();
            loadLocal(monitor);
            mv.visitMethodInsn(INVOKEINTERFACE, Protocol.METHOD_MONITOR, "wantsArguments", "()Z", true);
            mv.visitJumpInsn(IFEQ, unwanted);
            loadLocal(monitor);
            push(id);
            loadArgArray();
            mv.visitMethodInsn(INVOKEINTERFACE, Protocol.METHOD_MONITOR, Protocol.ENTER, Protocol.ENTER_DESCRIPTOR, true);
            storeLocal(token);
            mv.visitJumpInsn(GOTO, skip);
            mv.visitLabel(unwanted);
        }
        loadLocal(monitor);
        push(id);
        mv.visitFieldInsn(GETSTATIC, Protocol.SUPPORT, "NO_ARGS", "[Ljava/lang/Object;");
        mv.visitMethodInsn(INVOKEINTERFACE, Protocol.METHOD_MONITOR, Protocol.ENTER, Protocol.ENTER_DESCRIPTOR, true);
        storeLocal(token);
        mv.visitLabel(skip);
        mv.visitLabel(tryStart);
    }

    private void loadMonitor() {
        if (indyAvailable) {
            mv.visitInvokeDynamicInsn("monitor", Protocol.MONITOR_DESCRIPTOR, Protocol.LINK_MONITOR,
                    Protocol.FILTERED_GROUP_TYPE);
        } else {
            mv.visitFieldInsn(GETSTATIC, owner, Protocol.HOLDER_FIELD, Protocol.HOLDER_DESCRIPTOR);
            mv.visitMethodInsn(INVOKEVIRTUAL, Protocol.SYNCHRONIZED_HOLDER, "content", "()Ljava/lang/Object;", false);
            mv.visitTypeInsn(CHECKCAST, Protocol.METHOD_MONITOR);
        }
    }

    @Override
    protected void onMethodExit(int opcode) {
        if (opcode == ATHROW) {
            // EnhancedCodeSupport.thrown(t, reported, mm, id); reported = t
            dup();
            loadLocal(reported);
            loadLocal(monitor);
            push(id);
            mv.visitMethodInsn(INVOKESTATIC, Protocol.SUPPORT, "thrown", Protocol.THROWN_DESCRIPTOR, false);
            dup();
            storeLocal(reported);
            return;
        }
        // if (mm != null) mm.exitWithToken(id, token) or EnhancedCodeSupport.returned(mm, id, result, token)
        Label skip = new Label();
        if (opcode == RETURN) {
            loadLocal(monitor);
            mv.visitJumpInsn(IFNULL, skip);
            loadLocal(monitor);
            push(id);
            loadLocal(token);
            mv.visitMethodInsn(INVOKEINTERFACE, Protocol.METHOD_MONITOR, Protocol.EXIT, Protocol.EXIT_VOID_DESCRIPTOR, true);
        } else {
            Type result = Type.getReturnType(methodDesc);
            if (result.getSize() == 2) {
                dup2();
            } else {
                dup();
            }
            int value = newLocal(result);
            storeLocal(value);
            loadLocal(monitor);
            mv.visitJumpInsn(IFNULL, skip);
            loadLocal(monitor);
            push(id);
            loadLocal(value);
            loadLocal(token);
            mv.visitMethodInsn(INVOKESTATIC, Protocol.SUPPORT, Protocol.RETURNED, Protocol.returnedDescriptor(result), false);
        }
        mv.visitLabel(skip);
    }

    @Override
    public void visitMaxs(int maxStack, int maxLocals) {
        if (!entered) {
            // AdviceAdapter did not find the super(...)/this(...) call of a constructor.
            throw new UnsupportedOperationException("no method entry found in " + owner + "." + getName() + methodDesc);
        }
        // Catch-all handler, added last so it has the lowest priority:
        // EnhancedCodeSupport.failed[WithResult](t, reported, mm, id, token); throw t
        Label handler = new Label();
        mv.visitLabel(handler);
        mv.visitTryCatchBlock(tryStart, handler, handler, null);
        dup();
        loadLocal(reported);
        loadLocal(monitor);
        push(id);
        loadLocal(token);
        boolean isVoid = Type.getReturnType(methodDesc).getSort() == Type.VOID;
        mv.visitMethodInsn(INVOKESTATIC, Protocol.SUPPORT, isVoid ? Protocol.FAILED : Protocol.FAILED_WITH_RESULT,
                Protocol.FAILED_DESCRIPTOR, false);
        mv.visitInsn(ATHROW);
        super.visitMaxs(maxStack, maxLocals);
    }
}
