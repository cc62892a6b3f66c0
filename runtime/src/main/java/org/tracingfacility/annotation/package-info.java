/**
 * The annotations of the Tracing Facility (TF).
 *
 * <p>A <em>TF annotation</em> (a monitor group) is an annotation type that carries
 * {@link org.tracingfacility.annotation.MethodMonitorGroup}. Putting a TF annotation on a
 * class or method marks the methods to enhance; attaching a
 * {@link org.tracingfacility.runtime.MethodMonitorFactory} to the group at run time, through
 * {@link org.tracingfacility.runtime.MethodMonitorRegistry}, makes their entries, exits,
 * exceptions and info points visible.
 */
package org.tracingfacility.annotation;
