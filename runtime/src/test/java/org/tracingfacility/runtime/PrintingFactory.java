package org.tracingfacility.runtime;

/**
 * A user's own factory, as {@code -Dtf.monitor} finds it by class name (public, with a public
 * no-argument constructor) or through {@link PrintingFactoryProvider}: prints each entry and
 * exit on standard output, after its label.
 */
public final class PrintingFactory implements MethodMonitorFactory {
    private final String label;

    public PrintingFactory() {
        this("by class name");
    }

    PrintingFactory(String label) {
        this.label = label;
    }

    @Override
    public MethodMonitor create(Class<?> cls) {
        return new MethodMonitor() {
            @Override
            public Class<?> myClass() {
                return cls;
            }

            @Override
            public void enter(int ident, Object... args) {
                print("enter", ident);
            }

            @Override
            public void info(Object[] args, int callerIdent, int selfIdent, TimingPointType tpType) {
            }

            @Override
            public void exit(int ident) {
                print("exit", ident);
            }

            @Override
            public void exit(int ident, Object result) {
                print("exit", ident);
            }

            @Override
            public void exception(int ident, Throwable thr) {
            }

            @Override
            public void clear() {
            }

            @Override
            public boolean wantsArguments() {
                return false;
            }

            private void print(String event, int ident) {
                System.out.println(label + ": " + event + " " + cls.getSimpleName() + "."
                        + MethodMonitorRegistry.methodName(cls, ident));
            }
        };
    }

    @Override
    public String toString() {
        return "PrintingFactory(" + label + ")";
    }
}
