package org.tracingfacility.opentelemetry;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import java.util.ArrayDeque;
import org.tracingfacility.runtime.MethodMonitor;
import org.tracingfacility.runtime.TimingPointType;

/**
 * The spans of one class's monitored methods. A call's span and the scope that makes it
 * current are kept on a per-thread stack: calls end in the reverse order they start, on the
 * thread that started them, so the scopes close in the order OpenTelemetry requires.
 */
final class SpanMonitor implements MethodMonitor {
    private static final AttributeKey<String> THREAD_NAME = AttributeKey.stringKey(OpenTelemetryFactory.THREAD_NAME);
    private static final AttributeKey<Long> THREAD_ID = AttributeKey.longKey(OpenTelemetryFactory.THREAD_ID);
    private static final AttributeKey<String> TIMING_POINT = AttributeKey.stringKey("tf.timing_point");
    /** Shared by all monitors of all factories: each pops what it pushed. */
    private static final ThreadLocal<ArrayDeque<OpenSpan>> OPEN = ThreadLocal.withInitial(ArrayDeque::new);

    private final Class<?> cls;
    private final Tracer tracer;
    private final String[] tracingNames;
    private final String[] spanNames;
    private final Attributes[] attributes;
    private final boolean arguments;

    SpanMonitor(Class<?> cls, Tracer tracer, String[] tracingNames, String[] spanNames, Attributes[] attributes,
            boolean arguments) {
        this.cls = cls;
        this.tracer = tracer;
        this.tracingNames = tracingNames;
        this.spanNames = spanNames;
        this.attributes = attributes;
        this.arguments = arguments;
    }

    @Override
    public Class<?> myClass() {
        return cls;
    }

    @Override
    public void enter(int ident, Object... args) {
        if (ident < 0 || ident >= spanNames.length) {
            return;
        }
        Thread thread = Thread.currentThread();
        AttributesBuilder builder = attributes[ident].toBuilder()
                .put(THREAD_NAME, thread.getName())
                .put(THREAD_ID, thread.getId());
        putArguments(args, builder);
        Span span = tracer.spanBuilder(spanNames[ident]).setAllAttributes(builder.build()).startSpan();
        OPEN.get().push(new OpenSpan(span, span.makeCurrent()));
    }

    @Override
    public void info(Object[] args, int callerIdent, int selfIdent, TimingPointType tpType) {
        if (selfIdent < 0 || selfIdent >= spanNames.length) {
            return;
        }
        AttributesBuilder builder = Attributes.builder();
        if (tpType != TimingPointType.NONE) {
            builder.put(TIMING_POINT, tpType.name());
        }
        putArguments(args, builder);
        Span.current().addEvent(tracingNames[selfIdent], builder.build());
    }

    @Override
    public void exception(int ident, Throwable thr) {
        Span span = Span.current();
        span.recordException(thr);
        span.setStatus(StatusCode.ERROR, thr.getClass().getSimpleName());
    }

    @Override
    public void exit(int ident) {
        end(ident);
    }

    @Override
    public void exit(int ident, Object result) {
        end(ident);
    }

    @Override
    public void clear() {
        // Spans belong to the exporter once ended.
    }

    @Override
    public boolean wantsArguments() {
        return arguments;
    }

    private void end(int ident) {
        if (ident < 0 || ident >= spanNames.length) {
            return; // enter opened no span either
        }
        OpenSpan open = OPEN.get().poll();
        if (open != null) {
            open.scope.close();
            open.span.end();
        }
    }

    private void putArguments(Object[] args, AttributesBuilder builder) {
        if (!arguments || args == null) {
            return;
        }
        for (int i = 0; i < args.length; i++) {
            Object arg = args[i];
            if (MethodMonitor.isRedacted(arg)) {
                continue; // never a @Redacted value, not even its placeholder
            }
            String text = String.valueOf(arg);
            if (text.length() > OpenTelemetryFactory.MAX_ARGUMENT_LENGTH) {
                text = text.substring(0, OpenTelemetryFactory.MAX_ARGUMENT_LENGTH) + "...";
            }
            builder.put("tf.arg." + i, text);
        }
    }

    private static final class OpenSpan {
        final Span span;
        final Scope scope;

        OpenSpan(Span span, Scope scope) {
            this.span = span;
            this.scope = scope;
        }
    }
}
