/**
 * The run-time side of the Tracing Facility (TF): what enhanced classes call, and what users
 * program against.
 *
 * <ul>
 *   <li>{@link org.tracingfacility.runtime.MethodMonitor} receives the events of monitored
 *       methods; {@link org.tracingfacility.runtime.MethodMonitorFactory} creates one per class.
 *   <li>{@link org.tracingfacility.runtime.MethodMonitorRegistry} attaches factories to TF
 *       annotations (groups), at run time, and can be locked.
 *   <li>{@link org.tracingfacility.runtime.MethodMonitorFactoryDefaults}: noOp, dprint,
 *       operationTracer, compose, timing, jfr.
 *   <li>{@link org.tracingfacility.runtime.TracingFacilityMXBean}: the same control over JMX.
 *   <li>{@link org.tracingfacility.runtime.EnhancedCodeSupport} and
 *       {@link org.tracingfacility.runtime.SynchronizedHolder}: for generated code only.
 * </ul>
 */
package org.tracingfacility.runtime;
