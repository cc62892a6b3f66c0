package org.tracingfacility.runtime;

import java.io.PrintStream;
import org.tracingfacility.runtime.support.EnhancedCodeSupport;

/**
 * Prints every event, one line each, indented by the thread's nesting of monitored calls:
 * <pre>
 * TF [main]   &gt; com.example.IOStream.writeLong(42)
 * TF [main]     . com.example.IOStream.writeLong: interestingWriteLong("An odd value", 42)
 * TF [main]   &lt; com.example.IOStream.writeLong
 * </pre>
 * {@code >} enter, {@code .} info, {@code !} exception, {@code <} exit ({@code = result}, or
 * {@code threw} and the throwable when the method ended by one).
 */
final class DprintMonitor implements MethodMonitor {
    /** Nesting depth per thread, shared by all dprint monitors so indentation spans classes. */
    private static final ThreadLocal<int[]> DEPTH = ThreadLocal.withInitial(() -> new int[1]);

    private final Class<?> cls;
    private final PrintStream out;

    DprintMonitor(Class<?> cls, PrintStream out) {
        this.cls = cls;
        this.out = out;
    }

    @Override
    public Class<?> myClass() {
        return cls;
    }

    @Override
    public void enter(int ident, Object... args) {
        int[] depth = DEPTH.get();
        print(depth[0]++, "> " + method(ident) + "(" + ValueFormat.arguments(args) + ")");
    }

    @Override
    public void info(Object[] args, int callerIdent, int selfIdent, TimingPointType tpType) {
        String timing = tpType == TimingPointType.NONE ? "" : " [" + tpType + "]";
        print(DEPTH.get()[0], ". " + method(callerIdent) + ": " + name(selfIdent) + "("
                + ValueFormat.arguments(args) + ")" + timing);
    }

    @Override
    public void exit(int ident) {
        Throwable ending = EnhancedCodeSupport.endingThrowable();
        print(leave(), "< " + method(ident) + (ending == null ? "" : " threw " + ending));
    }

    @Override
    public void exit(int ident, Object result) {
        Throwable ending = EnhancedCodeSupport.endingThrowable();
        print(leave(), "< " + method(ident) + (ending == null ? " = " + ValueFormat.format(result) : " threw " + ending));
    }

    @Override
    public void exception(int ident, Throwable thr) {
        print(Math.max(DEPTH.get()[0] - 1, 0), "! " + method(ident) + " threw " + thr);
    }

    @Override
    public void clear() {
    }

    private static int leave() {
        int[] depth = DEPTH.get();
        depth[0] = Math.max(depth[0] - 1, 0);
        return depth[0];
    }

    private void print(int depth, String line) {
        StringBuilder text = new StringBuilder("TF [").append(Thread.currentThread().getName()).append("] ");
        for (int i = 0; i < depth; i++) {
            text.append("  ");
        }
        out.println(text.append(line));
    }

    private String method(int ident) {
        return cls.getName() + "." + name(ident);
    }

    private String name(int ident) {
        try {
            return MethodMonitorRegistry.methodName(cls, ident);
        } catch (IllegalArgumentException e) {
            return "#" + ident;
        }
    }
}
