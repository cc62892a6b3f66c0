package org.tracingfacility.runtime;

/**
 * A monitor factory that {@code -Dtf.monitor=Group=name} and the management bean can name,
 * found with {@link java.util.ServiceLoader}: list the implementation in
 * {@code META-INF/services/org.tracingfacility.runtime.MethodMonitorFactoryProvider}.
 * Optional monitor modules (OpenTelemetry, Micrometer) and the user's own factories plug in
 * this way without code.
 */
public interface MethodMonitorFactoryProvider {
    /**
     * The name that selects this factory, e.g. {@code opentelemetry}.
     *
     * @return a name without {@code =}, {@code ,} or {@code ;}
     */
    String name();

    /**
     * Creates the factory. Called once per registration.
     *
     * @return the factory, never null
     */
    MethodMonitorFactory create();
}
