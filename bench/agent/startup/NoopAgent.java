import java.lang.instrument.Instrumentation;

/**
 * An agent that does nothing: what any {@code -javaagent} costs a JVM before the agent runs a
 * line (on JDK 25 it turns off class-data sharing's archived module graph, among others).
 */
public class NoopAgent {
    public static void premain(String options, Instrumentation instrumentation) {
    }
}
