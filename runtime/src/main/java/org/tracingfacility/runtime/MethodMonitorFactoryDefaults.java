package org.tracingfacility.runtime;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import org.tracingfacility.runtime.jfr.JfrFactory;
import org.tracingfacility.runtime.profile.ProfileFactory;
import org.tracingfacility.runtime.timing.TimingFactory;

/**
 * Ready-made factories. Each also has a name, for {@code -Dtf.monitor} and the management
 * bean: {@code noOp}, {@code dprint}, {@code operationTracer}, {@code timing}, {@code jfr},
 * {@code profile}.
 */
public final class MethodMonitorFactoryDefaults {
    // Classes rather than lambdas here and in the rest of what the agent's start runs: each
    // lambda a JVM links costs it a generated class and its compilation (issue 50).
    private static final MethodMonitorFactory NO_OP = new Named("noOp") {
        @Override
        public MethodMonitor create(Class<?> cls) {
            return new NoOpMonitor.SelfGuarded(cls);
        }
    };
    private static final MethodMonitorFactory DPRINT = dprint(System.out);
    private static final MethodMonitorFactory OPERATION_TRACER = new Named("operationTracer") {
        @Override
        public MethodMonitor create(Class<?> cls) {
            return new OperationTracer.Monitor(cls);
        }
    };

    /** Created on first use: the JFR one needs the {@code jdk.jfr} module. */
    private static final class Shared {
        static final TimingFactory TIMING =
                new TimingFactory(Math.max(1, Integer.getInteger("tf.timing.sampleEvery", 1)));
    }

    private static final class SharedJfr {
        static final JfrFactory JFR = new JfrFactory();
    }

    /** Created on first use: it registers a shutdown hook that writes the profile. */
    private static final class SharedProfile {
        static final ProfileFactory PROFILE = ProfileAtExit.processWide();
    }

    /** Created on first use: it registers a shutdown hook that writes the count of calls. */
    private static final class SharedCalls {
        static final ProfileFactory CALLS = ProfileAtExit.processWideCalls();
    }

    private MethodMonitorFactoryDefaults() {
    }

    /**
     * Keeps, per thread, the nesting of entered monitored calls and their arguments, for
     * {@link OperationTracer#describe()} to put into error messages.
     */
    public static MethodMonitorFactory operationTracer() {
        return OPERATION_TRACER;
    }

    /** Does nothing at all, and asks for no arguments. */
    public static MethodMonitorFactory noOp() {
        return NO_OP;
    }

    /**
     * Prints every event on {@link System#out}, indented by nesting, with the thread, class,
     * tracing name, arguments and result or exception.
     */
    public static MethodMonitorFactory dprint() {
        return DPRINT;
    }

    /** Like {@link #dprint()}, printing on {@code out}. */
    public static MethodMonitorFactory dprint(PrintStream out) {
        return new Named("dprint") {
            @Override
            public MethodMonitor create(Class<?> cls) {
                return new DprintMonitor(cls, out);
            }
        };
    }

    /** Hands every event to the monitors of all {@code factories}, in iteration order. */
    public static MethodMonitorFactory compose(final Collection<MethodMonitorFactory> factories) {
        List<MethodMonitorFactory> parts = List.copyOf(factories);
        return new MethodMonitorFactory() {
            @Override
            public MethodMonitor create(Class<?> cls) {
                List<MethodMonitor> monitors = new ArrayList<>(parts.size());
                for (MethodMonitorFactory factory : parts) {
                    monitors.add(factory.create(cls));
                }
                return new CompositeMonitor(cls, monitors);
            }

            @Override
            public String toString() {
                return "compose" + parts;
            }
        };
    }

    /**
     * The process-wide timing factory: per method and interval, invocations, mean, minimum,
     * maximum and percentiles; {@code timing().report()} prints them. It measures every
     * invocation, or one in N per thread with {@code -Dtf.timing.sampleEvery=N}.
     */
    public static TimingFactory timing() {
        return Shared.TIMING;
    }

    /**
     * The process-wide JFR factory: a {@code org.tracingfacility.MethodTrace} event per
     * invocation and periodic {@code org.tracingfacility.MethodTiming} events, recorded
     * beside the JDK's own events when a flight recording runs.
     */
    public static MethodMonitorFactory jfr() {
        return SharedJfr.JFR;
    }

    /**
     * The process-wide calling-context profile: per thread, the tree of monitored calls with
     * calls, inclusive and exclusive time; written at JVM exit as an HTML flame graph or folded
     * stacks to the file {@code -Dtf.profile.output} names (default {@code tf-profile.html}).
     */
    public static ProfileFactory profile() {
        return SharedProfile.PROFILE;
    }

    /**
     * The process-wide calling-context profile that counts calls and reads no clock (FERRARI's
     * metric, at a fraction of {@link #profile()}'s cost where calls are short): per thread,
     * the tree of monitored calls with their counts; written at JVM exit as an HTML flame graph
     * (widths: calls) or folded stacks to the file {@code -Dtf.calls.output} names (default
     * {@code tf-calls.html}).
     */
    public static ProfileFactory calls() {
        return SharedCalls.CALLS;
    }

    /** The default factory of a name (case-insensitive), or null. */
    public static MethodMonitorFactory byName(String name) {
        switch (name.toLowerCase(Locale.ROOT)) {
            case "noop":
                return noOp();
            case "dprint":
                return dprint();
            case "operationtracer":
                return operationTracer();
            case "timing":
                return timing();
            case "jfr":
                return jfr();
            case "profile":
                return profile();
            case "calls":
                return calls();
            default:
                return null;
        }
    }

    /** The names {@link #byName} knows. */
    public static List<String> names() {
        return List.of("noOp", "dprint", "operationTracer", "timing", "jfr", "profile", "calls");
    }

    /** A factory whose {@code toString} is its name, as the management bean shows it. */
    private abstract static class Named implements MethodMonitorFactory {
        private final String name;

        Named(String name) {
            this.name = name;
        }

        @Override
        public String toString() {
            return name;
        }
    }
}
