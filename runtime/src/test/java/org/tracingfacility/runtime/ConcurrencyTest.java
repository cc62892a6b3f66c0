package org.tracingfacility.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.tracingfacility.runtime.TestGroups.IO;
import org.tracingfacility.runtime.TestGroups.IORead;

/**
 * Factories registered and cleared while two threads call monitored methods: no exception,
 * and every invocation is seen completely (enter and exit, by the same monitor) or not at all.
 */
@ExtendWith(RegistryCleanup.class)
class ConcurrencyTest {
    private static final int REGISTRATION_ROUNDS = 300;

    /** A monitor that checks each invocation's events as they arrive. */
    private static final class CheckingFactory implements MethodMonitorFactory {
        final Map<Integer, MethodMonitor> openInvocations = new ConcurrentHashMap<>();
        final ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
        final AtomicInteger completed = new AtomicInteger();

        @Override
        public MethodMonitor create(Class<?> cls) {
            return new MethodMonitor() {
                @Override
                public Class<?> myClass() {
                    return cls;
                }

                @Override
                public void enter(int ident, Object... args) {
                    if (openInvocations.put((Integer) args[0], this) != null) {
                        violations.add("duplicate enter of invocation " + args[0]);
                    }
                }

                @Override
                public void info(Object[] args, int callerIdent, int selfIdent, TimingPointType tpType) {
                }

                @Override
                public void exit(int ident) {
                    violations.add("void exit from readInt");
                }

                @Override
                public void exit(int ident, Object result) {
                    int invocation = (Integer) result / 2;
                    MethodMonitor entered = openInvocations.remove(invocation);
                    if (entered != this) {
                        violations.add("exit of invocation " + invocation + " without its enter on this monitor");
                    }
                    completed.incrementAndGet();
                }

                @Override
                public void exception(int ident, Throwable thr) {
                    violations.add("exception " + thr);
                }

                @Override
                public void clear() {
                }
            };
        }
    }

    @Test
    void registrationChangesNeverSplitAnInvocation() throws Exception {
        CheckingFactory checking = new CheckingFactory();
        ReaderFixture reader = new ReaderFixture();
        AtomicInteger nextInvocation = new AtomicInteger();
        AtomicBoolean running = new AtomicBoolean(true);
        ConcurrentLinkedQueue<Throwable> thrown = new ConcurrentLinkedQueue<>();

        Runnable caller = () -> {
            try {
                while (running.get()) {
                    int invocation = nextInvocation.getAndIncrement();
                    assertEquals(invocation * 2, reader.readInt(invocation));
                }
            } catch (Throwable t) {
                thrown.add(t);
            }
        };
        Thread registrar = new Thread(() -> {
            try {
                // Each step changes the monitor of ReaderFixture: own registration, via the parent, none.
                for (int round = 0; round < REGISTRATION_ROUNDS; round++) {
                    MethodMonitorRegistry.register(IORead.class, checking);
                    MethodMonitorRegistry.clear(IORead.class);
                    MethodMonitorRegistry.register(IO.class, MethodMonitorFactoryDefaults.compose(List.of(checking)));
                    MethodMonitorRegistry.clear(IO.class);
                    MethodMonitorRegistry.register(IO.class, MethodMonitorFactoryDefaults.timing());
                    MethodMonitorRegistry.register(IORead.class, checking);
                    MethodMonitorRegistry.clear(IO.class);
                    MethodMonitorRegistry.clear(IORead.class);
                }
            } catch (Throwable t) {
                thrown.add(t);
            } finally {
                running.set(false);
            }
        });
        Thread first = new Thread(caller);
        Thread second = new Thread(caller);
        first.start();
        second.start();
        registrar.start();
        registrar.join();
        first.join();
        second.join();

        assertEquals(List.of(), List.copyOf(thrown));
        assertEquals(List.of(), List.copyOf(checking.violations));
        assertEquals(Map.of(), checking.openInvocations, "invocations entered but never exited");
        assertTrue(checking.completed.get() > 0, "the checking monitor saw no invocation at all");
    }
}
