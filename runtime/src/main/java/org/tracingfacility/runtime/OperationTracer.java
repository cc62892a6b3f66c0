package org.tracingfacility.runtime;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * The current thread's nesting of monitored calls, as seen by the
 * {@link MethodMonitorFactoryDefaults#operationTracer() operationTracer} factory: read it to
 * put context into an error message.
 *
 * <pre>{@code
 * } catch (IOException e) {
 *     throw new IOException("while " + OperationTracer.describe(), e);
 * }
 * }</pre>
 *
 * <p>Chosen by name ({@code -Dtf.monitor=Group=operationTracer} or the management bean), it
 * also prints each exception thrown in a traced call with the calls it was thrown in, on
 * standard error or in the file {@code -Dtf.operationTracer.output} names.
 */
public final class OperationTracer {
    /** One entered, not yet exited call. */
    static final class Frame {
        final Class<?> cls;
        final int ident;
        final Object[] args;

        Frame(Class<?> cls, int ident, Object[] args) {
            this.cls = cls;
            this.ident = ident;
            this.args = args;
        }

        @Override
        public String toString() {
            String name;
            try {
                name = MethodMonitorRegistry.methodName(cls, ident);
            } catch (IllegalArgumentException e) {
                name = "#" + ident;
            }
            return cls.getSimpleName() + "." + name + "(" + ValueFormat.arguments(args) + ")";
        }
    }

    private static final ThreadLocal<ArrayList<Frame>> STACK = ThreadLocal.withInitial(ArrayList::new);

    /** Where exceptions are reported with their calls, once chosen by name; null: nowhere. */
    private static volatile PrintStream exceptionReport;
    /** The exception last reported on this thread: reported where thrown, not at every frame it leaves. */
    private static final ThreadLocal<Throwable> LAST_REPORTED = new ThreadLocal<>();

    private OperationTracer() {
    }

    /** The calls the current thread is in, outermost first, as {@code Class.method(args)}. */
    public static List<String> current() {
        // Formatting an argument may run monitored code: as a monitor's own work, it is not traced.
        return ReentryGuard.atWork(() -> {
            List<String> result = new ArrayList<>();
            for (Frame frame : STACK.get()) {
                result.add(frame.toString());
            }
            return result;
        });
    }

    /** {@link #current()} joined by {@code " > "}; empty when outside any traced call. */
    public static String describe() {
        return String.join(" > ", current());
    }

    /** Forgets the current thread's nesting. */
    public static void clear() {
        STACK.get().clear();
    }

    /**
     * From now on, prints each exception thrown in a traced call, once, where it is first
     * reported, with the calls it was thrown in:
     * {@code TF operationTracer [main]: java.io.IOException: disk gone in Cart.checkout("ann") > Payment.charge(12)}.
     */
    static void reportExceptionsTo(PrintStream out) {
        exceptionReport = out;
    }

    static void push(Frame frame) {
        STACK.get().add(frame);
    }

    static void pop() {
        ArrayList<Frame> stack = STACK.get();
        if (!stack.isEmpty()) {
            stack.remove(stack.size() - 1);
        }
    }

    /** The monitor: pushes on enter, pops on exit. */
    static final class Monitor implements MethodMonitor {
        private final Class<?> cls;

        Monitor(Class<?> cls) {
            this.cls = cls;
        }

        @Override
        public Class<?> myClass() {
            return cls;
        }

        @Override
        public void enter(int ident, Object... args) {
            push(new Frame(cls, ident, args));
        }

        @Override
        public void info(Object[] args, int callerIdent, int selfIdent, TimingPointType tpType) {
        }

        @Override
        public void exit(int ident) {
            pop();
        }

        @Override
        public void exit(int ident, Object result) {
            pop();
        }

        @Override
        public void exception(int ident, Throwable thr) {
            PrintStream out = exceptionReport;
            if (out != null && LAST_REPORTED.get() != thr) {
                LAST_REPORTED.set(thr);
                out.println("TF operationTracer [" + Thread.currentThread().getName() + "]: " + thr + " in " + describe());
            }
        }

        @Override
        public void clear() {
            OperationTracer.clear();
        }
    }
}
