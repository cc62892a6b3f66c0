package org.tracingfacility.it.generated;

import java.util.Random;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * Writes random but verifiable code into a method: every value has a known type, every local
 * is set before use, and every loop ends. The shapes are the ones instrumenters get wrong:
 * values left on the operand stack across branches and below returns and {@code athrow},
 * nested try/catch handlers (some covering code with values on the stack), table and lookup
 * switches, long and double locals, locals beyond index 255 ({@code wide}), and (for class
 * versions before 50) finally blocks as {@code jsr}/{@code ret} subroutines. Everything it
 * computes is deterministic, so the original and the enhanced method must agree.
 */
final class CodeGenerator implements Opcodes {
    /** Statements nest this deep at most. */
    private static final int MAX_DEPTH = 3;
    /** Expressions nest this deep at most (each level may hold a condition of two more). */
    private static final int MAX_EXPRESSION_DEPTH = 2;
    private static final String[] CATCH_TYPES = {
        "java/lang/ArithmeticException", "java/lang/IllegalStateException", "java/lang/RuntimeException", null};
    private static final int[] INT_CONSTANTS = {-1, 0, 1, 2, 3, 5, 7, 31, 100, 255, 1000, -4096, 65536, Integer.MAX_VALUE, Integer.MIN_VALUE};

    private final Random random;
    private final MethodVisitor mv;
    private final Locals locals;
    private final String owner;
    private final Type returnType;
    /** Whether finally blocks may be {@code jsr} subroutines: class versions before 50 only. */
    private final boolean subroutines;
    /** Statements left to write in this method: bounds its size. */
    private int budget;
    private int loopDepth;
    /** Values that statements being written now have below them on the stack (see carryAcross). */
    private int carried;

    CodeGenerator(Random random, MethodVisitor mv, Locals locals, String owner, Type returnType, int budget,
            boolean subroutines) {
        this.subroutines = subroutines;
        this.random = random;
        this.mv = mv;
        this.locals = locals;
        this.owner = owner;
        this.returnType = returnType;
        this.budget = budget;
    }

    /**
     * Sets every body local from the parameters (which come first in each kind's slots), so that
     * each is set on every path before anything reads it.
     */
    void prologue() {
        for (int slot : locals.bodyInts) {
            mv.visitVarInsn(ILOAD, locals.ints[0]);
            pushInt(INT_CONSTANTS[random.nextInt(INT_CONSTANTS.length)]);
            mv.visitInsn(IXOR);
            mv.visitVarInsn(ISTORE, slot);
        }
        for (int slot : locals.bodyLongs) {
            mv.visitVarInsn(LLOAD, locals.longs[0]);
            mv.visitLdcInsn(random.nextLong());
            mv.visitInsn(LADD);
            mv.visitVarInsn(LSTORE, slot);
        }
        for (int slot : locals.bodyDoubles) {
            mv.visitVarInsn(DLOAD, locals.doubles[0]);
            mv.visitLdcInsn(random.nextInt(100) / 4.0);
            mv.visitInsn(DMUL);
            mv.visitVarInsn(DSTORE, slot);
        }
    }

    /** A run of statements at this nesting depth. */
    void statements(int depth) {
        int count = 1 + random.nextInt(depth == 0 ? 6 : 3);
        for (int i = 0; i < count && budget > 0; i++) {
            statement(depth);
        }
    }

    /** Values below the result, then the result, then the return instruction. */
    void returnValue() {
        junk();
        switch (returnType.getSort()) {
            case Type.INT:
                intExpression(0);
                mv.visitInsn(IRETURN);
                break;
            case Type.LONG:
                longExpression(0);
                mv.visitInsn(LRETURN);
                break;
            case Type.DOUBLE:
                doubleExpression(0);
                mv.visitInsn(DRETURN);
                break;
            case Type.OBJECT:
                intExpression(0);
                mv.visitMethodInsn(INVOKESTATIC, "java/lang/String", "valueOf", "(I)Ljava/lang/String;", false);
                mv.visitInsn(ARETURN);
                break;
            case Type.VOID:
                mv.visitInsn(RETURN);
                break;
            default:
                throw new IllegalArgumentException("generator bug: return type " + returnType);
        }
    }

    private void statement(int depth) {
        budget--;
        int kind = depth >= MAX_DEPTH ? random.nextInt(3) : random.nextInt(10);
        switch (kind) {
            case 0:
                assignment();
                break;
            case 1:
                addToSink();
                break;
            case 2:
                division();
                break;
            case 3:
                ifElse(depth);
                break;
            case 4:
                loop(depth);
                break;
            case 5:
                switchStatement(depth);
                break;
            case 6:
                tryCatch(depth);
                break;
            case 7:
                earlyReturnOrThrow(depth);
                break;
            case 8:
                carryAcross(depth);
                break;
            default:
                if (subroutines && carried == 0) { // the handler calls it with an empty stack: so must the try block
                    finallyBlock(depth);
                } else {
                    tryCatch(depth);
                }
                break;
        }
    }

    private void assignment() {
        switch (random.nextInt(3)) {
            case 0:
                intExpression(0);
                mv.visitVarInsn(ISTORE, pick(locals.ints));
                break;
            case 1:
                longExpression(0);
                mv.visitVarInsn(LSTORE, pick(locals.longs));
                break;
            default:
                doubleExpression(0);
                mv.visitVarInsn(DSTORE, pick(locals.doubles));
                break;
        }
    }

    /** {@code sink = sink * 31 + (long) expression}: every method's work is observable through it. */
    private void addToSink() {
        mv.visitFieldInsn(GETSTATIC, owner, ClassGenerator.SINK, "J");
        mv.visitLdcInsn(31L);
        mv.visitInsn(LMUL);
        intExpression(0);
        mv.visitInsn(I2L);
        mv.visitInsn(LADD);
        mv.visitFieldInsn(PUTSTATIC, owner, ClassGenerator.SINK, "J");
    }

    /** An integer division or remainder by a value that may be zero: may throw ArithmeticException. */
    private void division() {
        intExpression(1);
        mv.visitVarInsn(ILOAD, pick(locals.ints));
        mv.visitInsn(random.nextBoolean() ? IDIV : IREM);
        mv.visitVarInsn(ISTORE, pick(locals.bodyInts));
    }

    private void ifElse(int depth) {
        Label otherwise = new Label();
        Label end = new Label();
        condition(otherwise);
        statements(depth + 1);
        mv.visitJumpInsn(GOTO, end);
        mv.visitLabel(otherwise);
        if (random.nextBoolean()) {
            statements(depth + 1);
        }
        mv.visitLabel(end);
    }

    /** {@code for (c = 0; c < n; c++)} with a counter nothing else writes; one to three rounds. */
    private void loop(int depth) {
        if (loopDepth >= locals.loopCounters.length) {
            assignment();
            return;
        }
        int counter = locals.loopCounters[loopDepth++];
        Label top = new Label();
        mv.visitInsn(ICONST_0);
        mv.visitVarInsn(ISTORE, counter);
        mv.visitLabel(top);
        statements(depth + 1);
        mv.visitIincInsn(counter, 1);
        mv.visitVarInsn(ILOAD, counter);
        mv.visitInsn(ICONST_1 + random.nextInt(3));
        mv.visitJumpInsn(IF_ICMPLT, top);
        loopDepth--;
    }

    private void switchStatement(int depth) {
        int cases = 1 + random.nextInt(4);
        Label end = new Label();
        Label fallback = new Label();
        Label[] targets = new Label[cases];
        for (int i = 0; i < cases; i++) {
            targets[i] = new Label();
        }
        intExpression(1);
        int low = random.nextInt(5) - 2;
        if (random.nextBoolean()) {
            mv.visitTableSwitchInsn(low, low + cases - 1, fallback, targets);
        } else {
            int[] keys = new int[cases];
            for (int i = 0; i < cases; i++) {
                keys[i] = low + i * (1 + random.nextInt(50));
            }
            java.util.Arrays.sort(keys);
            for (int i = 1; i < cases; i++) {
                if (keys[i] <= keys[i - 1]) {
                    keys[i] = keys[i - 1] + 1;
                }
            }
            mv.visitLookupSwitchInsn(fallback, keys, targets);
        }
        for (Label target : targets) {
            mv.visitLabel(target);
            statements(depth + 1);
            if (random.nextInt(4) != 0) { // else fall through into the next case
                mv.visitJumpInsn(GOTO, end);
            }
        }
        mv.visitLabel(fallback);
        if (random.nextBoolean()) {
            statements(depth + 1);
        }
        mv.visitLabel(end);
    }

    /** A handler (maybe catch-all) around statements, itself running statements; both may nest more. */
    private void tryCatch(int depth) {
        Label start = new Label();
        Label end = new Label();
        Label handler = new Label();
        Label after = new Label();
        String type = CATCH_TYPES[random.nextInt(CATCH_TYPES.length)];
        mv.visitTryCatchBlock(start, end, handler, type);
        mv.visitLabel(start);
        division(); // never an empty range, and something that may throw
        statements(depth + 1);
        if (random.nextBoolean()) {
            throwNew("thrown in a try block");
        }
        mv.visitLabel(end);
        mv.visitJumpInsn(GOTO, after);
        mv.visitLabel(handler);
        mv.visitVarInsn(ASTORE, locals.caught);
        statements(depth + 1);
        // A handler starts with an empty stack: where the try block had values below it, the
        // handler cannot join the code after the block, so it leaves the method.
        boolean mustLeave = carried > 0;
        if (mustLeave && random.nextBoolean()) {
            returnValue();
        } else if (mustLeave || (type != null && random.nextInt(4) == 0)) {
            mv.visitVarInsn(ALOAD, locals.caught); // rethrow what was caught, from the handler
            mv.visitInsn(ATHROW);
        }
        mv.visitLabel(after);
    }

    /**
     * {@code try { ... } finally { ... }} as javac 1.4 wrote it: the finally block is a
     * subroutine that the normal path and a catch-all handler both call with {@code jsr}, and
     * that returns with {@code ret}. Its body is straight-line code, so subroutines never nest.
     */
    private void finallyBlock(int depth) {
        Label start = new Label();
        Label end = new Label();
        Label handler = new Label();
        Label subroutine = new Label();
        Label after = new Label();
        mv.visitTryCatchBlock(start, end, handler, null);
        mv.visitLabel(start);
        division();
        statements(depth + 1);
        mv.visitLabel(end);
        mv.visitJumpInsn(JSR, subroutine);
        mv.visitJumpInsn(GOTO, after);
        mv.visitLabel(handler);
        mv.visitVarInsn(ASTORE, locals.finallyCaught);
        mv.visitJumpInsn(JSR, subroutine);
        mv.visitVarInsn(ALOAD, locals.finallyCaught);
        mv.visitInsn(ATHROW);
        mv.visitLabel(subroutine);
        mv.visitVarInsn(ASTORE, locals.returnAddress);
        int count = 1 + random.nextInt(3);
        for (int i = 0; i < count; i++) {
            if (random.nextBoolean()) {
                assignment();
            } else {
                addToSink();
            }
        }
        mv.visitVarInsn(RET, locals.returnAddress);
        mv.visitLabel(after);
    }

    /** Under a condition: a return or a throw with values below it on the stack. */
    private void earlyReturnOrThrow(int depth) {
        Label skip = new Label();
        condition(skip);
        if (random.nextBoolean()) {
            returnValue();
        } else {
            throwNew("thrown at depth " + depth);
        }
        mv.visitLabel(skip);
    }

    /** A value pushed before a statement and consumed after it: it lies on the stack through every branch inside. */
    private void carryAcross(int depth) {
        carried++;
        switch (random.nextInt(3)) {
            case 0:
                intExpression(1);
                statement(depth + 1);
                mv.visitVarInsn(ISTORE, pick(locals.bodyInts));
                break;
            case 1:
                longExpression(1);
                statement(depth + 1);
                mv.visitVarInsn(LSTORE, pick(locals.bodyLongs));
                break;
            default:
                doubleExpression(1);
                statement(depth + 1);
                mv.visitVarInsn(DSTORE, pick(locals.bodyDoubles));
                break;
        }
        carried--;
    }

    /** {@code throw new IllegalStateException(message)}, with values below it. */
    private void throwNew(String message) {
        junk();
        mv.visitTypeInsn(NEW, "java/lang/IllegalStateException");
        mv.visitInsn(DUP);
        mv.visitLdcInsn(message);
        mv.visitMethodInsn(INVOKESPECIAL, "java/lang/IllegalStateException", "<init>", "(Ljava/lang/String;)V", false);
        mv.visitInsn(ATHROW);
    }

    /** Zero to three values of any kind, left for the return or throw that follows to discard. */
    private void junk() {
        int count = random.nextInt(4);
        for (int i = 0; i < count; i++) {
            switch (random.nextInt(5)) {
                case 0:
                    mv.visitInsn(ICONST_M1 + random.nextInt(7));
                    break;
                case 1:
                    mv.visitInsn(random.nextBoolean() ? LCONST_0 : LCONST_1);
                    break;
                case 2:
                    mv.visitInsn(DCONST_1);
                    break;
                case 3:
                    mv.visitInsn(ACONST_NULL);
                    break;
                default:
                    mv.visitLdcInsn("left on the stack");
                    break;
            }
        }
    }

    /** Jumps to {@code target} on a random comparison of random values. */
    void condition(Label target) {
        switch (random.nextInt(4)) {
            case 0:
                intExpression(1);
                mv.visitJumpInsn(IFEQ + random.nextInt(6), target);
                break;
            case 1:
                intExpression(1);
                intExpression(1);
                mv.visitJumpInsn(IF_ICMPEQ + random.nextInt(6), target);
                break;
            case 2:
                longExpression(1);
                longExpression(1);
                mv.visitInsn(LCMP);
                mv.visitJumpInsn(IFEQ + random.nextInt(6), target);
                break;
            default:
                doubleExpression(1);
                doubleExpression(1);
                mv.visitInsn(random.nextBoolean() ? DCMPL : DCMPG);
                mv.visitJumpInsn(IFEQ + random.nextInt(6), target);
                break;
        }
    }

    /** Pushes one int. Deeper expressions are simpler, so that every expression ends. */
    void intExpression(int depth) {
        int kind = depth >= MAX_EXPRESSION_DEPTH ? random.nextInt(2) : random.nextInt(7);
        switch (kind) {
            case 0:
                pushInt(INT_CONSTANTS[random.nextInt(INT_CONSTANTS.length)]);
                break;
            case 1:
                mv.visitVarInsn(ILOAD, pick(locals.ints));
                break;
            case 2: {
                intExpression(depth + 1);
                intExpression(depth + 1);
                int[] ops = {IADD, ISUB, IMUL, IXOR, IAND, IOR, ISHL, ISHR, IUSHR};
                mv.visitInsn(ops[random.nextInt(ops.length)]);
                break;
            }
            case 3: // a value below a ternary: on the stack across both arms and at their join
                intExpression(depth + 1);
                ternaryInt(depth + 1);
                mv.visitInsn(IADD);
                break;
            case 4:
                switchExpression(depth + 1);
                break;
            case 5:
                longExpression(depth + 1);
                mv.visitInsn(L2I);
                break;
            default:
                doubleExpression(depth + 1);
                mv.visitInsn(D2I);
                break;
        }
    }

    /** {@code condition ? a : b}, compiled with a jump into each arm. */
    void ternaryInt(int depth) {
        Label otherwise = new Label();
        Label end = new Label();
        condition(otherwise);
        intExpression(depth);
        mv.visitJumpInsn(GOTO, end);
        mv.visitLabel(otherwise);
        intExpression(depth);
        mv.visitLabel(end);
    }

    /** A switch expression: each case pushes its own int, all join at one label. */
    void switchExpression(int depth) {
        int cases = 1 + random.nextInt(3);
        Label end = new Label();
        Label fallback = new Label();
        Label[] targets = new Label[cases];
        for (int i = 0; i < cases; i++) {
            targets[i] = new Label();
        }
        intExpression(depth);
        mv.visitTableSwitchInsn(0, cases - 1, fallback, targets);
        for (Label target : targets) {
            mv.visitLabel(target);
            intExpression(depth);
            mv.visitJumpInsn(GOTO, end);
        }
        mv.visitLabel(fallback);
        intExpression(depth);
        mv.visitLabel(end);
    }

    void longExpression(int depth) {
        int kind = depth >= MAX_EXPRESSION_DEPTH ? random.nextInt(2) : random.nextInt(5);
        switch (kind) {
            case 0:
                mv.visitLdcInsn(random.nextBoolean() ? (long) random.nextInt(1000) : random.nextLong());
                break;
            case 1:
                mv.visitVarInsn(LLOAD, pick(locals.longs));
                break;
            case 2: {
                longExpression(depth + 1);
                longExpression(depth + 1);
                int[] ops = {LADD, LSUB, LMUL, LXOR, LAND, LOR};
                mv.visitInsn(ops[random.nextInt(ops.length)]);
                break;
            }
            case 3:
                intExpression(depth + 1);
                mv.visitInsn(I2L);
                break;
            default: {
                Label otherwise = new Label();
                Label end = new Label();
                longExpression(depth + 1); // below the ternary
                condition(otherwise);
                longExpression(depth + 1);
                mv.visitJumpInsn(GOTO, end);
                mv.visitLabel(otherwise);
                longExpression(depth + 1);
                mv.visitLabel(end);
                mv.visitInsn(LXOR);
                break;
            }
        }
    }

    void doubleExpression(int depth) {
        int kind = depth >= MAX_EXPRESSION_DEPTH ? random.nextInt(2) : random.nextInt(4);
        switch (kind) {
            case 0:
                mv.visitLdcInsn(random.nextInt(2000) / 8.0 - 100);
                break;
            case 1:
                mv.visitVarInsn(DLOAD, pick(locals.doubles));
                break;
            case 2: {
                doubleExpression(depth + 1);
                doubleExpression(depth + 1);
                int[] ops = {DADD, DSUB, DMUL, DDIV};
                mv.visitInsn(ops[random.nextInt(ops.length)]);
                break;
            }
            default:
                intExpression(depth + 1);
                mv.visitInsn(I2D);
                break;
        }
    }

    private void pushInt(int value) {
        if (value >= -1 && value <= 5) {
            mv.visitInsn(ICONST_0 + value);
        } else if (value >= Byte.MIN_VALUE && value <= Byte.MAX_VALUE) {
            mv.visitIntInsn(BIPUSH, value);
        } else if (value >= Short.MIN_VALUE && value <= Short.MAX_VALUE) {
            mv.visitIntInsn(SIPUSH, value);
        } else {
            mv.visitLdcInsn(value);
        }
    }

    private int pick(int[] slots) {
        return slots[random.nextInt(slots.length)];
    }
}
