package org.tracingfacility.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.net.ServerSocket;
import java.rmi.registry.LocateRegistry;
import java.rmi.registry.Registry;
import java.rmi.server.UnicastRemoteObject;
import java.util.List;
import java.util.Map;
import javax.management.JMX;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXConnectorServer;
import javax.management.remote.JMXConnectorServerFactory;
import javax.management.remote.JMXServiceURL;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.tracingfacility.runtime.TestGroups.IORead;

/** The management bean through a real JMX connection over RMI, as jconsole would use it. */
@ExtendWith(RegistryCleanup.class)
class ManagementTest {
    private static Registry rmiRegistry;
    private static JMXConnectorServer server;
    private static JMXConnector connector;
    private static TracingFacilityMXBean bean;

    @BeforeAll
    static void connect() throws Exception {
        System.setProperty("java.rmi.server.hostname", "127.0.0.1");
        new ReaderFixture(); // the first enhanced class initializes the registry, which registers the bean soon
        Thread registration = TracingFacilityBean.pendingRegistration();
        assertNotNull(registration, "the registry's start scheduled the bean's registration");
        registration.join(10_000);
        int port;
        try (ServerSocket probe = new ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        rmiRegistry = LocateRegistry.createRegistry(port);
        JMXServiceURL url = new JMXServiceURL("service:jmx:rmi:///jndi/rmi://127.0.0.1:" + port + "/jmxrmi");
        server = JMXConnectorServerFactory.newJMXConnectorServer(url, null, ManagementFactory.getPlatformMBeanServer());
        server.start();
        connector = JMXConnectorFactory.connect(url);
        MBeanServerConnection connection = connector.getMBeanServerConnection();
        ObjectName name = new ObjectName(TracingFacilityMXBean.OBJECT_NAME);
        assertTrue(connection.isRegistered(name));
        assertTrue(JMX.isMXBeanInterface(TracingFacilityMXBean.class));
        bean = JMX.newMXBeanProxy(connection, name, TracingFacilityMXBean.class);
    }

    @AfterAll
    static void disconnect() throws Exception {
        connector.close();
        server.stop();
        UnicastRemoteObject.unexportObject(rmiRegistry, true);
    }

    @Test
    void listsGroupsFactoriesAndClasses() {
        assertTrue(bean.getGroups().containsAll(List.of(
                "org.tracingfacility.annotation.Filtered",
                "org.tracingfacility.runtime.TestGroups$Audit",
                "org.tracingfacility.runtime.TestGroups$IO",
                "org.tracingfacility.runtime.TestGroups$IORead")), bean.getGroups().toString());
        assertEquals(List.of("noOp", "dprint", "operationTracer", "timing", "jfr", "profile", "calls", "printing"), bean.getFactoryNames(),
                "the built-in names, then those of the providers on the class path");
        assertTrue(bean.getEnhancedClasses().contains(ReaderFixture.class.getName()));
        assertFalse(bean.isLocked());
    }

    @Test
    void attachesAndClearsAFactoryByName() {
        bean.register("IORead", "timing");
        assertSame(MethodMonitorFactoryDefaults.timing(), MethodMonitorRegistry.registeredFactory(IORead.class));
        assertEquals(Map.of("org.tracingfacility.runtime.TestGroups$IORead", "timing"), bean.getRegistrations());

        bean.clear("org.tracingfacility.runtime.TestGroups$IORead");
        assertEquals(Map.of(), bean.getRegistrations());
        assertEquals(null, ReaderFixture.currentMonitor());
    }

    @Test
    void attachesAFactoryToASubgroupWithoutMethodMonitorGroup() {
        bean.register("IOWrite", "noOp");
        assertEquals(Map.of("org.tracingfacility.runtime.TestGroups$IOWrite", "noOp"), bean.getRegistrations());
    }

    @Test
    void attachesAFactoryOfAProviderOrByClassName() {
        bean.register("IORead", "printing");
        bean.register("IO", PrintingFactory.class.getName());
        assertEquals(Map.of("org.tracingfacility.runtime.TestGroups$IORead", "PrintingFactory(provided)",
                "org.tracingfacility.runtime.TestGroups$IO", "PrintingFactory(by class name)"), bean.getRegistrations());
    }

    @Test
    void readsTheTimingTable() {
        bean.clearTiming();
        bean.register("IO", "timing");
        ReaderFixture reader = new ReaderFixture();
        for (int i = 0; i < 10; i++) {
            reader.readInt(i);
        }
        String table = bean.getTimingReport();
        assertTrue(table.contains("Timed Method"), table);
        assertTrue(table.matches("(?s).*\norg\\.tracingfacility\\.runtime\\.ReaderFixture\\.readInt\\(int\\) +10 .*"), table);
        bean.clearTiming();
        assertFalse(bean.getTimingReport().contains("readInt"));
    }

    @Test
    void mistakesComeBackAsErrors() {
        RuntimeException unknownGroup = assertThrows(RuntimeException.class, () -> bean.register("Nowhere", "timing"));
        assertTrue(String.valueOf(unknownGroup.getMessage()).contains("unknown TF group 'Nowhere'"), unknownGroup.toString());
        RuntimeException unknownFactory = assertThrows(RuntimeException.class, () -> bean.register("IO", "fast"));
        assertTrue(String.valueOf(unknownFactory.getMessage()).contains("unknown factory 'fast'"), unknownFactory.toString());
    }
}
