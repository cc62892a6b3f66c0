package org.tracingfacility.agent;

/**
 * The agent's lines on standard error, each one line beginning {@code TF agent: }: the agent
 * has no logger of the application's to borrow, and must not load one.
 *
 * <p>Lines said while the JVM loads a class are held ({@link #lineLater}) and printed at the
 * next safe point ({@link #flush}): printing needs a charset's classes, and when the class being
 * loaded is one of them ({@code java.nio.charset.CoderResult} under {@code filter=java.**}) the
 * JVM answers the print with a {@code ClassCircularityError} and fails the agent's start.
 */
final class AgentLog {
    private static final String PREFIX = "TF agent: ";
    /** java.lang only: a class of java.util here could be the one being loaded. */
    private static final StringBuilder HELD = new StringBuilder();

    private AgentLog() {
    }

    static void line(String message) {
        System.err.println(PREFIX + message.replace('\n', ' '));
    }

    /** A class the agent left as it was, and why. */
    static void leftAsItWas(String className, String reason) {
        line(className + " left as it was: " + reason);
    }

    /** {@link #line}, printed by the next {@link #flush}. */
    static void lineLater(String message) {
        synchronized (HELD) {
            HELD.append(PREFIX).append(message.replace('\n', ' ')).append('\n');
        }
    }

    /** {@link #leftAsItWas}, printed by the next {@link #flush}. */
    static void leftAsItWasLater(String className, String reason) {
        lineLater(className + " left as it was: " + reason);
    }

    /** Prints the lines held; call it where no class of the JDK is being loaded by this thread. */
    static void flush() {
        String text;
        synchronized (HELD) {
            if (HELD.length() == 0) {
                return;
            }
            text = HELD.toString();
            HELD.setLength(0);
        }
        System.err.print(text);
        System.err.flush();
    }

    /** Prints what is still held when the JVM exits. */
    static void flushAtExit() {
        Runtime.getRuntime().addShutdownHook(new Thread(new Flush(), "tf-agent-log"));
    }

    /** Not a lambda: the first lambda costs a JVM milliseconds of start-up. */
    private static final class Flush implements Runnable {
        @Override
        public void run() {
            flush();
        }
    }
}
