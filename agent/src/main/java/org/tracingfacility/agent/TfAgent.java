package org.tracingfacility.agent;

import java.lang.instrument.Instrumentation;

/**
 * The agent jar's entry points (its manifest names this class for all three). Nothing here may
 * stop the application: every failure becomes one line on standard error and the application
 * runs on without tracing.
 */
public final class TfAgent {
    private TfAgent() {
    }

    /** {@code -javaagent:tf-agent.jar=<options>}: enhance classes as they load. */
    public static void premain(String arguments, Instrumentation instrumentation) {
        AgentOptions options;
        try {
            options = AgentOptions.parse(arguments);
        } catch (IllegalArgumentException e) {
            AgentLog.line("not started, bad options: " + e.getMessage() + "; the application runs without tracing");
            return;
        }
        try {
            LoadTimeAgent.start(options, instrumentation);
        } catch (IllegalArgumentException e) {
            AgentLog.line("not started, bad filter: " + e.getMessage() + "; the application runs without tracing");
        } catch (Throwable e) { // the application must start whatever happened here
            AgentLog.line("not started: " + e + "; the application runs without tracing");
        }
    }

    /** Attaching to a running JVM: see {@link RunTimeAgent}. */
    public static void agentmain(String arguments, Instrumentation instrumentation) {
        RunTimeAgent.agentmain(arguments, instrumentation);
    }

    /**
     * {@code java -jar tf-agent.jar <pid> start|stop|status|report [options]}: see {@link RunTimeAgent};
     * {@code java -jar tf-agent.jar archive [file]}: see {@link StartupArchive}.
     */
    public static void main(String[] arguments) throws Exception {
        if (arguments.length > 0 && arguments[0].equals(StartupArchive.COMMAND)) {
            System.exit(StartupArchive.run(arguments, System.out, System.err));
        }
        RunTimeAgent.main(arguments);
    }
}
