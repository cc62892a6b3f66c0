package org.tracingfacility.runtime;

import java.util.ArrayList;
import java.util.List;

/**
 * Applies the system properties that control TF without code changes, once, when the
 * registry initializes: {@code tf.monitor}, then {@code tf.registry.locked}, then
 * {@code tf.jmx}. A mistake in them is reported on standard error and skipped: monitoring
 * must never stop the application from starting.
 */
final class StartupConfiguration {
    static final String MONITOR_PROPERTY = "tf.monitor";
    static final String LOCKED_PROPERTY = "tf.registry.locked";
    static final String JMX_PROPERTY = "tf.jmx";

    private StartupConfiguration() {
    }

    static void applySystemProperties() {
        try {
            String monitor = System.getProperty(MONITOR_PROPERTY);
            if (monitor != null) {
                for (String problem : applyMonitorProperty(monitor, classLoader())) {
                    System.err.println("TF: -D" + MONITOR_PROPERTY + ": " + problem);
                }
            }
        } finally {
            // Whatever went wrong above, a requested lock must hold.
            if (Boolean.getBoolean(LOCKED_PROPERTY)) {
                MethodMonitorRegistry.lock();
            }
        }
        if (!"false".equalsIgnoreCase(System.getProperty(JMX_PROPERTY))) {
            try {
                TracingFacilityBean.registerPlatformBeanSoon();
            } catch (LinkageError | SecurityException e) {
                // A run-time image without java.management: no bean, and no reason to fail.
                System.err.println("TF: management bean not registered: " + e);
            }
        }
    }

    /**
     * Registers the factories that a {@code Group=factory[,Group=factory...]} value names;
     * entries are separated by {@code ,} or {@code ;} (as in {@code tf.filters}). A factory is
     * named as {@link FactoryNames} finds it.
     *
     * @return one message per entry that could not be applied; the others are applied
     */
    static List<String> applyMonitorProperty(String value, ClassLoader loader) {
        List<String> problems = new ArrayList<>();
        // Split by hand: a regular expression's first use costs a traced JVM's start.
        for (int start = 0, end; start <= value.length(); start = end + 1) {
            end = nextSeparator(value, start);
            String trimmed = value.substring(start, end).trim();
            if (trimmed.isEmpty()) {
                continue;
            }
            int equals = trimmed.indexOf('=');
            if (equals <= 0 || equals == trimmed.length() - 1) {
                problems.add("'" + trimmed + "' is not Group=factory");
                continue;
            }
            String groupName = trimmed.substring(0, equals).trim();
            String factoryName = trimmed.substring(equals + 1).trim();
            MethodMonitorFactory factory;
            try {
                factory = FactoryNames.resolve(factoryName, loader);
            } catch (IllegalArgumentException e) {
                problems.add(e.getMessage());
                continue;
            } catch (RuntimeException | LinkageError e) {
                problems.add("factory '" + factoryName + "' is not available in this JVM: " + e);
                continue;
            }
            try {
                MethodMonitorRegistry.register(GroupNames.resolve(groupName, loader), factory);
                ExitReports.chosenByName(factory);
            } catch (IllegalArgumentException | SecurityException e) {
                problems.add(e.getMessage());
            } catch (RuntimeException | LinkageError e) {
                problems.add("'" + trimmed + "' failed: " + e);
            }
        }
        return problems;
    }

    /** The application's loader when there is one, so groups of the application are found. */
    static ClassLoader classLoader() {
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        return context != null ? context : MethodMonitorRegistry.class.getClassLoader();
    }

    /** The index of the next {@code ,} or {@code ;} at or after {@code from}, else the length. */
    private static int nextSeparator(String value, int from) {
        for (int i = from; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == ',' || c == ';') {
                return i;
            }
        }
        return value.length();
    }
}
