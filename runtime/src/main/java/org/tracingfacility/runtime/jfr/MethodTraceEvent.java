package org.tracingfacility.runtime.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * One invocation of a monitored method: its duration and thread come with every JFR event, and
 * its stack trace (taken as it ends: TF's own frames, then the method and its callers), as
 * JFR's {@code jdk.MethodTrace} has, so that {@code jfr print --stack-depth 20} shows what called
 * it. A recording can turn it off with {@code org.tracingfacility.MethodTrace#stackTrace=false}.
 */
@Name(MethodTraceEvent.NAME)
@Label("TF Method Trace")
@Category("Tracing Facility")
@Description("An invocation of a method monitored by the Tracing Facility")
@StackTrace(true)
final class MethodTraceEvent extends Event {
    static final String NAME = "org.tracingfacility.MethodTrace";

    @Label("Method")
    @Description("Class and tracing name")
    String method;

    @Label("Exception")
    @Description("The class of the exception that ended the invocation, if any")
    String exception;
}
