package org.tracingfacility.runtime;

/** Makes {@link PrintingFactory} selectable as {@code printing}, listed in META-INF/services. */
public final class PrintingFactoryProvider implements MethodMonitorFactoryProvider {
    @Override
    public String name() {
        return "printing";
    }

    @Override
    public MethodMonitorFactory create() {
        return new PrintingFactory("provided");
    }
}
