/**
 * Calling-context profiles: {@link org.tracingfacility.runtime.profile.ProfileFactory} builds,
 * per thread, the tree of monitored calls, and exports it as folded stacks or an HTML flame graph.
 */
package org.tracingfacility.runtime.profile;
