package org.tracingfacility.bench;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.util.Collection;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.tracingfacility.micrometer.MicrometerFactory;
import org.tracingfacility.opentelemetry.OpenTelemetryFactory;
import org.tracingfacility.runtime.MethodMonitorRegistry;
import org.tracingfacility.runtime.profile.ProfileFactory;

/**
 * The cost of the monitored 1-ns method ({@link MonitoredWork}) under the optional monitors:
 * {@code opentelemetry} (the SDK, every span sampled, batched to an exporter that drops
 * them), {@code micrometer} (a Prometheus registry) and {@code profile}. Run it together
 * with {@link MonitorOverheadBenchmark#enhancedTiming} and
 * {@link JfrMethodTimingBenchmark} to compare in one run; {@code -prof gc} gives bytes per call.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
@State(Scope.Thread)
public class MonitorFactoriesBenchmark {
    private final MonitoredWork enhanced = new MonitoredWork();
    private int x = 42;

    @Setup(Level.Trial)
    public void checkEnhanced() {
        MonitoredWork.checkEnhanced();
    }

    /** Spans through the OpenTelemetry SDK, exported in batches to nowhere. */
    @State(Scope.Benchmark)
    public static class OpenTelemetry {
        private SdkTracerProvider tracing;

        @Setup(Level.Trial)
        public void register() {
            tracing = SdkTracerProvider.builder()
                    .addSpanProcessor(BatchSpanProcessor.builder(new DroppingExporter()).build())
                    .build();
            MethodMonitorRegistry.register(BenchGroup.class,
                    new OpenTelemetryFactory(OpenTelemetrySdk.builder().setTracerProvider(tracing).build()));
        }

        @TearDown(Level.Trial)
        public void close() {
            tracing.shutdown().join(10, TimeUnit.SECONDS);
        }
    }

    /** A Micrometer timer per method in a Prometheus registry. */
    @State(Scope.Benchmark)
    public static class Micrometer {
        @Setup(Level.Trial)
        public void register() {
            MethodMonitorRegistry.register(BenchGroup.class,
                    new MicrometerFactory(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)));
        }
    }

    /** The calling-context profile. */
    @State(Scope.Benchmark)
    public static class Profile {
        @Setup(Level.Trial)
        public void register() {
            MethodMonitorRegistry.register(BenchGroup.class, new ProfileFactory());
        }
    }

    @Benchmark
    public int enhancedOpenTelemetry(OpenTelemetry registered) {
        return enhanced.work(x++);
    }

    @Benchmark
    public int enhancedMicrometer(Micrometer registered) {
        return enhanced.work(x++);
    }

    @Benchmark
    public int enhancedProfile(Profile registered) {
        return enhanced.work(x++);
    }

    /** Accepts every batch and keeps nothing: the cost measured is TF's and the SDK's. */
    private static final class DroppingExporter implements SpanExporter {
        @Override
        public CompletableResultCode export(Collection<SpanData> spans) {
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode flush() {
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode shutdown() {
            return CompletableResultCode.ofSuccess();
        }
    }
}
