/**
 * The run-time side of the Tracing Facility (TF) that users program against. What enhanced
 * classes and the agent call is in {@link org.tracingfacility.runtime.support}, which no user
 * code imports.
 *
 * <ul>
 *   <li>{@link org.tracingfacility.runtime.MethodMonitor} receives the events of monitored
 *       methods; {@link org.tracingfacility.runtime.MethodMonitorFactory} creates one per class.
 *   <li>{@link org.tracingfacility.runtime.MethodMonitorRegistry} attaches factories to TF
 *       annotations (groups), at run time, and can be locked.
 *   <li>{@link org.tracingfacility.runtime.MethodMonitorFactoryDefaults}: noOp, dprint,
 *       operationTracer, compose, timing, jfr, profile, calls;
 *       {@link org.tracingfacility.runtime.MethodMonitorFactoryProvider} plugs in more by name.
 *   <li>{@link org.tracingfacility.runtime.MethodGroups} and
 *       {@link org.tracingfacility.runtime.OperationTracer}: for monitors and error messages.
 *   <li>{@link org.tracingfacility.runtime.TimingPointType}: what an {@code @InfoMethod} marks.
 *   <li>{@link org.tracingfacility.runtime.TracingFacilityMXBean}: the same control over JMX.
 * </ul>
 */
package org.tracingfacility.runtime;
