package org.tracingfacility.runtime.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** One invocation of a monitored method: its duration and thread come with every JFR event. */
@Name(MethodTraceEvent.NAME)
@Label("TF Method Trace")
@Category("Tracing Facility")
@Description("An invocation of a method monitored by the Tracing Facility")
@StackTrace(false)
final class MethodTraceEvent extends Event {
    static final String NAME = "org.tracingfacility.MethodTrace";

    @Label("Method")
    @Description("Class and tracing name")
    String method;

    @Label("Exception")
    @Description("The class of the exception that ended the invocation, if any")
    String exception;
}
