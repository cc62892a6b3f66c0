package org.tracingfacility.runtime.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Period;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * The timing statistics of one monitored method or interval since it was first timed,
 * emitted periodically (by default at the end of each chunk, as {@code jdk.MethodTiming}).
 */
@Name(MethodTimingEvent.NAME)
@Label("TF Method Timing")
@Category("Tracing Facility")
@Description("Invocations and durations of a method monitored by the Tracing Facility")
@Period("endChunk")
@StackTrace(false)
final class MethodTimingEvent extends Event {
    static final String NAME = "org.tracingfacility.MethodTiming";

    @Label("Method")
    String method;

    @Label("Invocations")
    long invocations;

    @Label("Average Time")
    @Timespan(Timespan.NANOSECONDS)
    long average;

    @Label("Minimum Time")
    @Timespan(Timespan.NANOSECONDS)
    long minimum;

    @Label("Maximum Time")
    @Timespan(Timespan.NANOSECONDS)
    long maximum;

    @Label("99th Percentile")
    @Timespan(Timespan.NANOSECONDS)
    long p99;
}
