package org.tracingfacility.runtime;

/**
 * Creates the monitor for a class. Registered against a TF annotation with
 * {@link MethodMonitorRegistry#register}; the registry calls {@link #create} for every
 * enhanced class carrying the annotation (or one of its subgroups), now and as classes load.
 */
@FunctionalInterface
public interface MethodMonitorFactory {
    /**
     * Returns the monitor to use in {@code cls}.
     *
     * @param cls an enhanced class
     * @return its monitor, never null
     */
    MethodMonitor create(Class<?> cls);
}
