package org.tracingfacility.agent;

/**
 * The agent's lines on standard error, each one line beginning {@code TF agent: }: the agent
 * has no logger of the application's to borrow, and must not load one.
 */
final class AgentLog {
    private static final String PREFIX = "TF agent: ";

    private AgentLog() {
    }

    static void line(String message) {
        System.err.println(PREFIX + message.replace('\n', ' '));
    }

    /** A class the agent left as it was, and why. */
    static void leftAsItWas(String className, String reason) {
        line(className + " left as it was: " + reason);
    }
}
