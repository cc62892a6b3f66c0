package org.tracingfacility.runtime;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import javax.management.ObjectName;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.tracingfacility.runtime.TestGroups.IO;
import org.tracingfacility.runtime.TestGroups.IORead;

/**
 * The start-up properties as the registry reads them when it initializes. Surefire runs each
 * test class in a fresh JVM, so the registry initializes here, after the properties are set.
 */
class StartupPropertiesTest {
    @BeforeAll
    static void startUpWithProperties() {
        System.setProperty("tf.monitor", "IORead=operationTracer");
        System.setProperty("tf.registry.locked", "true");
        System.setProperty("tf.jmx", "false");
        new ReaderFixture(); // initializes the registry, as the first enhanced class does
    }

    @Test
    void theMonitorPropertyIsAppliedThenTheRegistryLocked() {
        assertSame(MethodMonitorFactoryDefaults.operationTracer(), MethodMonitorRegistry.registeredFactory(IORead.class));
        assertSame(ReaderFixture.class, ReaderFixture.currentMonitor().myClass());
        assertTrue(MethodMonitorRegistry.isLocked());

        // Locked: registration is refused, clearing (which only takes visibility away) is not.
        assertThrows(SecurityException.class,
                () -> MethodMonitorRegistry.register(IO.class, MethodMonitorFactoryDefaults.dprint()));
        MethodMonitorRegistry.clear(IORead.class);
        assertSame(null, ReaderFixture.currentMonitor());
        assertThrows(SecurityException.class,
                () -> MethodMonitorRegistry.register(IORead.class, MethodMonitorFactoryDefaults.operationTracer()));
    }

    @Test
    void jmxCanBeTurnedOff() throws Exception {
        assertNull(TracingFacilityBean.pendingRegistration(), "no registration scheduled");
        assertFalse(ManagementFactory.getPlatformMBeanServer()
                .isRegistered(new ObjectName(TracingFacilityMXBean.OBJECT_NAME)));
    }
}
