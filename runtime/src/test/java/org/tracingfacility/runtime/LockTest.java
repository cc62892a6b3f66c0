package org.tracingfacility.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.tracingfacility.runtime.TestGroups.IO;
import org.tracingfacility.runtime.TestGroups.IORead;

/** Locking is irreversible: this class runs in a JVM of its own (one fork per test class). */
class LockTest {
    @Test
    void afterLockRegisterThrowsAndNothingChanges() {
        RecordingFactory before = new RecordingFactory("before");
        MethodMonitorRegistry.register(IORead.class, before);
        assertFalse(MethodMonitorRegistry.isLocked());

        MethodMonitorRegistry.lock();

        assertTrue(MethodMonitorRegistry.isLocked());
        SecurityException refused = assertThrows(SecurityException.class,
                () -> MethodMonitorRegistry.register(IORead.class, new RecordingFactory("attacker")));
        assertTrue(refused.getMessage().contains("locked"), refused.getMessage());
        assertThrows(SecurityException.class,
                () -> MethodMonitorRegistry.register(IO.class, MethodMonitorFactoryDefaults.dprint()));
        assertSame(before, MethodMonitorRegistry.registeredFactory(IORead.class));
        assertNull(MethodMonitorRegistry.registeredFactory(IO.class));

        // Through the bean, a factory class named from outside is not even created.
        TracingFacilityBean bean = new TracingFacilityBean(LockTest.class.getClassLoader());
        assertThrows(SecurityException.class, () -> bean.register("IO", CountedFactory.class.getName()));
        assertEquals(0, CountedFactory.created.get());

        MethodMonitorRegistry.clear(IORead.class);
        assertNull(ReaderFixture.currentMonitor());
    }

    /** A factory class that counts its instances. */
    public static final class CountedFactory implements MethodMonitorFactory {
        static final AtomicInteger created = new AtomicInteger();

        public CountedFactory() {
            created.incrementAndGet();
        }

        @Override
        public MethodMonitor create(Class<?> cls) {
            return new NoOpMonitor(cls);
        }
    }
}
