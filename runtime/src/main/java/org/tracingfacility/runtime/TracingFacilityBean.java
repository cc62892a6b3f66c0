package org.tracingfacility.runtime;

import java.io.IOException;
import java.lang.annotation.Annotation;
import java.lang.management.ManagementFactory;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.management.InstanceAlreadyExistsException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.tracingfacility.runtime.support.ThreadsAtWork;

/** The {@link TracingFacilityMXBean}: every operation goes through {@link MethodMonitorRegistry}. */
final class TracingFacilityBean implements TracingFacilityMXBean {
    private final ClassLoader loader;

    TracingFacilityBean(ClassLoader loader) {
        this.loader = loader;
    }

    /**
     * How long after TF starts the bean is registered. Creating the platform MBean server
     * (which registering the first bean does) costs some 170 ms of start-up on a small machine,
     * more than all the rest of the agent's: a JVM that ends within a second (a build's test
     * JVMs, a command-line tool) never pays it, and one that lives on has its bean before a JMX
     * client can connect.
     */
    static final long REGISTRATION_DELAY_MILLIS = 1_000;

    /** The thread that will register the bean, while it has not (for tests to wait on). */
    private static volatile Thread pendingRegistration;

    /**
     * Registers the bean {@link #REGISTRATION_DELAY_MILLIS} from now, on a daemon thread of
     * its own that is {@linkplain ThreadsAtWork at work} (the JDK code JMX runs is never
     * reported, however traced) and never holds up the JVM's exit.
     */
    static void registerPlatformBeanSoon() {
        Thread registration = new Thread("tf-jmx-registration") {
            @Override
            public void run() {
                ThreadsAtWork.enter();
                try {
                    Thread.sleep(REGISTRATION_DELAY_MILLIS);
                    registerPlatformBean();
                } catch (InterruptedException e) {
                    // The JVM is going away: no bean is wanted.
                } finally {
                    pendingRegistration = null;
                }
            }
        };
        registration.setDaemon(true);
        registration.setPriority(Thread.MIN_PRIORITY);
        pendingRegistration = registration;
        registration.start();
    }

    /** The thread that will register the bean, or null when none is pending. */
    static Thread pendingRegistration() {
        return pendingRegistration;
    }

    /** Registers the bean in the platform MBean server; a JVM without JMX just goes without. */
    static void registerPlatformBean() {
        try {
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            server.registerMBean(new TracingFacilityBean(StartupConfiguration.classLoader()),
                    new ObjectName(OBJECT_NAME));
        } catch (InstanceAlreadyExistsException e) {
            // Another copy of tf-runtime (another class loader) registered first: it serves.
        } catch (JMException | RuntimeException | LinkageError e) {
            System.err.println("TF: management bean not registered: " + e);
        }
    }

    @Override
    public List<String> getGroups() {
        return new ArrayList<>(GroupNames.all(loader));
    }

    @Override
    public Map<String, String> getRegistrations() {
        Map<String, String> result = new TreeMap<>();
        for (Map.Entry<Class<? extends Annotation>, MethodMonitorFactory> e
                : MethodMonitorRegistry.registrations().entrySet()) {
            result.put(e.getKey().getName(), String.valueOf(e.getValue()));
        }
        return result;
    }

    @Override
    public List<String> getFactoryNames() {
        return FactoryNames.known(loader);
    }

    @Override
    public List<String> getEnhancedClasses() {
        List<String> names = new ArrayList<>();
        for (Class<?> cls : MethodMonitorRegistry.registeredClasses()) {
            names.add(cls.getName());
        }
        names.sort(null);
        return names;
    }

    @Override
    public boolean isLocked() {
        return MethodMonitorRegistry.isLocked();
    }

    @Override
    public void register(String group, String factory) {
        Class<? extends Annotation> annotation = GroupNames.resolve(group, loader);
        if (MethodMonitorRegistry.isLocked()) {
            // Before a factory class named from outside is instantiated: locked means no effect at all.
            throw new SecurityException("TF: the method monitor registry is locked; cannot register a factory on "
                    + annotation.getName());
        }
        MethodMonitorFactory named = FactoryNames.resolve(factory, loader);
        MethodMonitorRegistry.register(annotation, named);
        ExitReports.chosenByName(named);
    }

    @Override
    public void clear(String group) {
        MethodMonitorRegistry.clear(GroupNames.resolve(group, loader));
    }

    @Override
    public long getDroppedReentrantEvents() {
        return ReentryGuard.dropped();
    }

    @Override
    public String getTimingReport() {
        return MethodMonitorFactoryDefaults.timing().report().toString();
    }

    @Override
    public void clearTiming() {
        MethodMonitorFactoryDefaults.timing().clear();
    }

    @Override
    public String getProfileFolded() {
        return MethodMonitorFactoryDefaults.profile().folded();
    }

    @Override
    public String dumpProfile(String file) throws IOException {
        return MethodMonitorFactoryDefaults.profile().write(Paths.get(file)).toString();
    }
}
