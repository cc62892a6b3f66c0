package org.tracingfacility.runtime;

import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * Management of the tracing facility from outside the application, through JMX (jconsole,
 * JDK Mission Control, any JMX client): list the groups, attach or clear a factory by name,
 * read the timing table. Registered as {@value #OBJECT_NAME} in the platform MBean server
 * when the registry initializes, unless {@code -Dtf.jmx=false}.
 */
public interface TracingFacilityMXBean {
    String OBJECT_NAME = "org.tracingfacility:type=MethodMonitorRegistry";

    /** The full names of the TF annotations: known to the registry or listed on the class path. */
    List<String> getGroups();

    /** Each group that has a factory of its own, with the factory's name. */
    Map<String, String> getRegistrations();

    /**
     * The names of the factories {@link #register} accepts: the built-in ones, then those of
     * the {@link MethodMonitorFactoryProvider}s on the class path. {@link #register} also
     * accepts the full name of a {@link MethodMonitorFactory} class with a public no-argument
     * constructor.
     */
    List<String> getFactoryNames();

    /** The names of the enhanced classes loaded so far. */
    List<String> getEnhancedClasses();

    /** Whether registration is locked. */
    boolean isLocked();

    /**
     * Attaches the factory of a name to a group (simple or full annotation name).
     *
     * @throws IllegalArgumentException for an unknown group or factory
     * @throws SecurityException if registration is locked
     */
    void register(String group, String factory);

    /** Removes the factory of a group (simple or full annotation name). */
    void clear(String group);

    /**
     * How many events were dropped because a monitor's own work raised them on its thread
     * (e.g. dprint formatting an argument whose {@code toString} is monitored): monitors are
     * never re-entered.
     */
    long getDroppedReentrantEvents();

    /** The process-wide timing factory's table. */
    String getTimingReport();

    /** Forgets the process-wide timing factory's statistics. */
    void clearTiming();

    /** The process-wide profile ({@code profile}) as folded stacks. */
    String getProfileFolded();

    /**
     * Writes the process-wide profile to a file: an HTML flame graph for {@code .html}, folded
     * stacks otherwise.
     *
     * @return the absolute path written
     */
    String dumpProfile(String file) throws IOException;
}
