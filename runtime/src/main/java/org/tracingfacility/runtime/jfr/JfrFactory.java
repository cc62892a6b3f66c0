package org.tracingfacility.runtime.jfr;

import jdk.jfr.FlightRecorder;
import org.tracingfacility.runtime.MethodMonitor;
import org.tracingfacility.runtime.MethodMonitorFactory;
import org.tracingfacility.runtime.support.ThreadsAtWork;
import org.tracingfacility.runtime.timing.TimingFactory;
import org.tracingfacility.runtime.timing.TimingReport;

/**
 * Makes monitored methods visible in JDK Flight Recorder: an
 * {@code org.tracingfacility.MethodTrace} event per invocation (duration, thread, method,
 * exception) and, periodically, an {@code org.tracingfacility.MethodTiming} event per method
 * and interval with its invocations and average, minimum, maximum and 99th-percentile time.
 * Both open in {@code jfr print --categories "Tracing Facility"} and in JDK Mission Control
 * beside the JDK's own events. They cost little when no recording runs.
 */
public final class JfrFactory implements MethodMonitorFactory {
    private final TimingFactory timing = new TimingFactory();

    /**
     * Registers the event types with the flight recorder. Create one per process (as
     * {@code MethodMonitorFactoryDefaults.jfr()} does): each instance adds a periodic hook.
     */
    public JfrFactory() {
        FlightRecorder.register(MethodTraceEvent.class);
        Runnable emitTiming = this::emitTimingEvents;
        FlightRecorder.addPeriodicEvent(MethodTimingEvent.class, emitTiming);
    }

    @Override
    public MethodMonitor create(Class<?> cls) {
        return new JfrMonitor(cls, timing.create(cls));
    }

    @Override
    public String toString() {
        return "jfr";
    }

    /** On JFR's periodic thread: TF's own work, which no traced JDK method reports. */
    private void emitTimingEvents() {
        boolean recorded = ThreadsAtWork.enter();
        try {
            emitTimingEventsAtWork();
        } finally {
            if (recorded) {
                ThreadsAtWork.leave();
            }
        }
    }

    private void emitTimingEventsAtWork() {
        for (TimingReport.Row row : timing.report().rows()) {
            MethodTimingEvent event = new MethodTimingEvent();
            event.method = row.name();
            event.invocations = row.invocations();
            event.average = row.meanNanos();
            event.minimum = row.minimumNanos();
            event.maximum = row.maximumNanos();
            event.p99 = row.p99Nanos();
            event.commit();
        }
    }
}
