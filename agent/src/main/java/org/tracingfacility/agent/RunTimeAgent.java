package org.tracingfacility.agent;

import java.lang.instrument.Instrumentation;

/**
 * The run-time half of the agent: attaching to a running JVM ({@code <pid> start|stop|status|
 * report}) and retransforming its loaded classes. Not built yet: the load-time half
 * ({@link LoadTimeAgent}) is what {@code -javaagent} runs.
 */
final class RunTimeAgent {
    private RunTimeAgent() {
    }

    static void agentmain(String arguments, Instrumentation instrumentation) {
        AgentLog.line("attaching to a running JVM is not built in this version; nothing was changed");
    }

    static void main(String[] arguments) {
        System.err.println("usage: java -javaagent:tf-agent.jar=filter=...,monitor=...,verbose -jar app.jar"
                + " (attaching to a running JVM is not built in this version)");
        System.exit(2);
    }
}
