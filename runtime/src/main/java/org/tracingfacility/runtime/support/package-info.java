/**
 * Not for users: what the code TF generates and the TF agent call, and what the runtime's own
 * packages share. Its names are the enhancer's protocol ({@code rust-core/src/protocol.rs},
 * the one place the core names them) and change with it; no application or monitor should
 * import this package (the user API is {@link org.tracingfacility.runtime}).
 *
 * <ul>
 *   <li>{@link org.tracingfacility.runtime.support.EnhancedCodeSupport}: registration,
 *       monitor linking and the exits of enhanced methods;
 *       {@link org.tracingfacility.runtime.support.SynchronizedHolder}: the holder fields.
 *   <li>{@link org.tracingfacility.runtime.support.GuardedSites}: the agent's table of sites;
 *       {@link org.tracingfacility.runtime.support.ThreadsAtWork}: the per-thread mark that
 *       keeps monitoring code from reaching a monitor;
 *       {@link org.tracingfacility.runtime.support.SelfGuardedMonitor}: built-in monitors
 *       that set it themselves, on their slow paths.
 *   <li>{@link org.tracingfacility.runtime.support.RegistryBridge}: this package's way to the
 *       registry; {@link org.tracingfacility.runtime.support.ExitWait}: the bound on reports
 *       at exit.
 * </ul>
 */
package org.tracingfacility.runtime.support;
