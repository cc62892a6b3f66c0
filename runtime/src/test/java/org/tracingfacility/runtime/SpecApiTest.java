package org.tracingfacility.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.tracingfacility.runtime.TestGroups.Audit;
import org.tracingfacility.runtime.support.EnhancedCodeSupport;
import org.tracingfacility.runtime.support.SynchronizedHolder;

/**
 * Code written from the 2010 design note alone, signatures and all: it must compile and work
 * against this library unchanged.
 */
@ExtendWith(RegistryCleanup.class)
class SpecApiTest {
    /** A monitor as the note defines the interface: no method beyond the note's. */
    static final class CountingMonitor implements MethodMonitor {
        private final Class<?> cls;
        final List<String> seen = new ArrayList<>();

        CountingMonitor(Class<?> cls) {
            this.cls = cls;
        }

        public Class<?> myClass() {
            return cls;
        }

        public void enter(int ident, Object... args) {
            seen.add("enter " + MethodMonitorRegistry.methodName(cls, ident) + " " + Arrays.asList(args));
        }

        public void info(Object[] args, int callerIdent, int selfIdent, TimingPointType tpType) {
            seen.add("info " + selfIdent);
        }

        public void exit(int ident) {
            seen.add("exit " + ident);
        }

        public void exit(int ident, Object result) {
            seen.add("exit " + ident + " " + result);
        }

        public void exception(int ident, Throwable thr) {
            seen.add("exception " + ident);
        }

        public void clear() {
            seen.clear();
        }
    }

    /** A class registering itself as a class file the enhancer wrote: its names, groups and holders. */
    @TestGroups.Audit
    static final class AuditedByHand {
        static final SynchronizedHolder<MethodMonitor> HOLDER = new SynchronizedHolder<MethodMonitor>();

        static {
            EnhancedCodeSupport.registerClass(AuditedByHand.class, GeneratedCode.joined("check", "log"),
                    new Class<?>[] {Audit.class}, new SynchronizedHolder<?>[] {HOLDER});
        }

        void check(String who) {
            MethodMonitor mm = HOLDER.content();
            if (mm != null) {
                mm.enter(0, who);
            }
            if (mm != null) {
                mm.exit(0);
            }
        }
    }

    @Test
    void theNotesApiWorksAsWritten() {
        final List<CountingMonitor> monitors = new ArrayList<>();
        MethodMonitorFactory counting = new MethodMonitorFactory() {
            public MethodMonitor create(Class<?> cls) {
                CountingMonitor monitor = new CountingMonitor(cls);
                monitors.add(monitor);
                return monitor;
            }
        };
        Collection<MethodMonitorFactory> factories = Arrays.asList(counting, MethodMonitorFactoryDefaults.noOp());
        MethodMonitorRegistry.register(Audit.class, MethodMonitorFactoryDefaults.compose(factories));

        new AuditedByHand().check("alice");

        assertEquals(1, monitors.size());
        assertEquals(List.of("enter check [alice]", "exit 0"), monitors.get(0).seen);
        assertSame(AuditedByHand.HOLDER.content(),
                MethodMonitorRegistry.monitor(AuditedByHand.class, Audit.class));
        assertEquals(1, MethodMonitorRegistry.methodIdentifier(AuditedByHand.class, "log"));
        assertEquals("log", MethodMonitorRegistry.methodName(AuditedByHand.class, 1));
        MethodMonitorFactory registered = MethodMonitorRegistry.registeredFactory(Audit.class);
        assertEquals(true, registered.toString().startsWith("compose"));
    }
}
