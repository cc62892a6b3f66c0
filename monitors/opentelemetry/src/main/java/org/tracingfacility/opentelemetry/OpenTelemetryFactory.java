package org.tracingfacility.opentelemetry;

import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Tracer;
import java.util.List;
import java.util.Objects;
import org.tracingfacility.runtime.MethodGroups;
import org.tracingfacility.runtime.MethodMonitor;
import org.tracingfacility.runtime.MethodMonitorFactory;
import org.tracingfacility.runtime.MethodMonitorRegistry;

/**
 * Turns every call of a monitored method into an OpenTelemetry span, a child of the span
 * current when the call starts (the web framework's, the OpenTelemetry agent's, or the
 * enclosing monitored call's), and current itself while the call runs.
 *
 * <ul>
 *   <li>name: {@code SimpleClassName.tracingName};
 *   <li>attributes: {@value #CLASS} (full class name), {@value #METHOD} (tracing name),
 *       {@value #GROUP} (the method's TF annotations), {@value #THREAD_NAME},
 *       {@value #THREAD_ID}; with {@link #withArguments()}, {@code tf.arg.N} for the N-th
 *       argument as text, except {@code @Redacted} ones, which monitors never see;
 *   <li>an exception thrown in or passing through the call: an {@code exception} event and
 *       status ERROR (one thrown and caught inside the same method counts too: enhanced code
 *       reports the throw, and the exit does not say how the method ended);
 *   <li>a call of an info method: an event named after it, with its arguments when
 *       arguments are recorded.
 * </ul>
 */
public final class OpenTelemetryFactory implements MethodMonitorFactory {
    /** The instrumentation scope of TF's spans. */
    public static final String SCOPE = "org.tracingfacility";
    public static final String CLASS = "code.namespace";
    public static final String METHOD = "code.function";
    public static final String GROUP = "tf.group";
    public static final String THREAD_NAME = "thread.name";
    public static final String THREAD_ID = "thread.id";
    /** Arguments are cut to this many characters. */
    public static final int MAX_ARGUMENT_LENGTH = 256;

    private final Tracer tracer;
    private final boolean arguments;

    /** Spans of {@link GlobalOpenTelemetry}: the agent's, or the SDK the application set up. */
    public OpenTelemetryFactory() {
        this(GlobalOpenTelemetry.get());
    }

    public OpenTelemetryFactory(OpenTelemetry openTelemetry) {
        this(openTelemetry.getTracer(SCOPE), false);
    }

    private OpenTelemetryFactory(Tracer tracer, boolean arguments) {
        this.tracer = Objects.requireNonNull(tracer, "tracer");
        this.arguments = arguments;
    }

    /**
     * A copy that records arguments as span attributes ({@code tf.arg.0}, ...), and those of
     * info methods as event attributes. Costs boxing and formatting on every call.
     */
    public OpenTelemetryFactory withArguments() {
        return new OpenTelemetryFactory(tracer, true);
    }

    @Override
    public MethodMonitor create(Class<?> cls) {
        List<String> names = MethodMonitorRegistry.methodNames(cls);
        String[] groups = MethodGroups.byIdentifier(cls);
        String[] spanNames = new String[names.size()];
        Attributes[] attributes = new Attributes[names.size()];
        for (int ident = 0; ident < spanNames.length; ident++) {
            spanNames[ident] = cls.getSimpleName() + "." + names.get(ident);
            attributes[ident] = Attributes.of(
                    AttributeKey.stringKey(CLASS), cls.getName(),
                    AttributeKey.stringKey(METHOD), names.get(ident),
                    AttributeKey.stringKey(GROUP), groups[ident]);
        }
        return new SpanMonitor(cls, tracer, names.toArray(new String[0]), spanNames, attributes, arguments);
    }

    @Override
    public String toString() {
        return arguments ? "opentelemetry(arguments)" : "opentelemetry";
    }
}
