package org.tracingfacility.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code Type+} targets: every class implementing an interface or extending a class, loaded
 * before the agent, after it, or after an attach's start. A real JDBC driver (H2, from Maven
 * Central), loaded through {@link java.sql.DriverManager} after the agent started, has its
 * {@code Connection.prepareStatement} timed, and the JDK's own {@code OutputStream}s theirs;
 * what a user sees (the timing table) is asserted.
 */
class SupertypeFilterIT {
    /** Opens an in-memory H2 database through DriverManager and prepares {@code n} statements. */
    private static final String JDBC = "package app;\n"
            + "import java.sql.*;\n"
            + "public class Jdbc {\n"
            + "  public static String prepare(int n) throws SQLException {\n"
            + "    try (Connection c = DriverManager.getConnection(\"jdbc:h2:mem:tf\")) {\n"
            + "      for (int i = 0; i < n; i++) {\n"
            + "        try (PreparedStatement s = c.prepareStatement(\"SELECT \" + i)) { s.executeQuery().close(); }\n"
            + "      }\n"
            + "      return c.getClass().getName();\n"
            + "    }\n"
            + "  }\n"
            + "  public static void main(String[] args) throws Exception {\n"
            + "    System.out.println(prepare(7));\n"
            + "  }\n"
            + "}\n";

    /** Answers lines on standard input: {@code jdbc} prepares 5 statements. */
    private static final String TARGET = "package app;\n"
            + "import java.io.*;\n"
            + "public class Target {\n"
            + "  public static void main(String[] args) throws Exception {\n"
            + "    BufferedReader in = new BufferedReader(new InputStreamReader(System.in));\n"
            + "    System.out.println(\"ready\");\n"
            + "    for (String line; (line = in.readLine()) != null && !line.equals(\"exit\"); ) {\n"
            + "      System.out.println(line.equals(\"jdbc\") ? Jdbc.prepare(5) : \"?\");\n"
            + "    }\n"
            + "  }\n"
            + "}\n";

    /**
     * An application stream through a JDK class between ({@code FilterOutputStream}), and a JDK
     * stream loaded before the agent ({@code ByteArrayOutputStream}).
     */
    private static final String STREAMS = "package app;\n"
            + "import java.io.*;\n"
            + "public class Streams {\n"
            + "  static final class Counting extends FilterOutputStream {\n"
            + "    int count;\n"
            + "    Counting(OutputStream out) { super(out); }\n"
            + "    @Override public void write(int b) throws IOException { count++; out.write(b); }\n"
            + "  }\n"
            + "  public static void main(String[] args) throws Exception {\n"
            + "    ByteArrayOutputStream bytes = new ByteArrayOutputStream();\n"
            + "    Counting counting = new Counting(bytes);\n"
            + "    for (int i = 0; i < 6; i++) { counting.write('a' + i); }\n"
            + "    for (int i = 0; i < 3; i++) { bytes.write('z'); }\n"
            + "    System.out.println(bytes + \" \" + counting.count);\n"
            + "  }\n"
            + "}\n";

    @TempDir
    Path work;

    /** The H2 jar, as this test's own class path has it. */
    private static Path h2() throws Exception {
        return Paths.get(org.h2.Driver.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    /**
     * {@code java.sql.Connection+::prepareStatement} at load time: H2's connection class, which
     * implements {@code Connection}, is traced as DriverManager loads the driver, long after the
     * agent started; the table counts each statement prepared.
     */
    @Test
    void everyJdbcConnectionsPrepareStatementIsTimedAtLoadTime() throws Exception {
        Path classes = AgentProcess.compile(work, Map.of("app.Jdbc", JDBC));
        AgentProcess.Result run = AgentProcess.run("filter=java.sql.Connection+::prepareStatement,monitor=Filtered=timing",
                List.of(classes, h2()), "app.Jdbc");
        assertEquals(0, run.exitCode, run::describe);
        assertEquals("org.h2.jdbc.JdbcConnection\n", run.stdout, run::describe);
        assertEquals(7, calls(run.stderr, "org.h2.jdbc.JdbcConnection.prepareStatement(String)"), run::describe);
        assertTrue(run.agentLines().isEmpty(), run::describe);
    }

    /**
     * The JDK's classes and the application's alike: {@code ByteArrayOutputStream}, loaded before
     * the agent, retransformed; the application's stream, whose chain to {@code OutputStream}
     * passes through the JDK's {@code FilterOutputStream}, traced as it loads.
     */
    @Test
    void jdkAndApplicationOutputStreamsAreTimed() throws Exception {
        Path classes = AgentProcess.compile(work, Map.of("app.Streams", STREAMS));
        AgentProcess.Result run = AgentProcess.run("filter=java.io.OutputStream+::write,monitor=Filtered=timing",
                List.of(classes), "app.Streams");
        assertEquals(0, run.exitCode, run::describe);
        assertEquals("abcdefzzz 6\n", run.stdout, run::describe);
        assertEquals(6, calls(run.stderr, "app.Streams$Counting.write(int)"), run::describe);
        // Six through Counting, three directly.
        assertEquals(9, calls(run.stderr, "java.io.ByteArrayOutputStream.write(int)"), run::describe);
        // System.out's own streams, loaded before the agent, carried the line printed.
        assertTrue(calls(run.stderr, "java.io.FileOutputStream.write(byte[],int,int)") > 0, run::describe);
    }

    /**
     * By attach: {@code start} before the application first opens a connection (H2's classes
     * not loaded yet, so nothing to retransform), the connection class traced as it loads, its
     * calls in {@code report}; {@code stop} restores it; a second {@code start} retransforms it,
     * loaded by then.
     */
    @Test
    void aStartReachesTheDriverLoadedAfterIt() throws Exception {
        Path classes = AgentProcess.compileRelease(work, "11", Map.of("app.Jdbc", JDBC, "app.Target", TARGET),
                List.of(h2()));
        try (AttachTarget target = AttachTarget.start(work, List.of(classes, h2()))) {
            AgentProcess.Result started = target.agent("start", "filter=java.sql.Connection+::prepareStatement",
                    "monitor=Filtered=timing");
            assertEquals(Reply.NOTHING_TRACED, started.exitCode, started::describe);
            assertEquals("org.h2.jdbc.JdbcConnection", target.ask("jdbc"));
            AgentProcess.Result report = target.agent("report");
            assertEquals(5, calls(report.stdout, "org.h2.jdbc.JdbcConnection.prepareStatement(String)"),
                    report::describe);

            AgentProcess.Result stopped = target.agent("stop");
            assertEquals("TF: stopped tracing 1 class; their code is as it was before start\n", stopped.stdout,
                    stopped::describe);
            assertEquals("org.h2.jdbc.JdbcConnection", target.ask("jdbc"));
            AgentProcess.Result after = target.agent("report");
            assertEquals(5, calls(after.stdout, "org.h2.jdbc.JdbcConnection.prepareStatement(String)"),
                    "no call counted after stop: " + after.describe());

            // Loaded now: a second start finds it among the loaded classes, by reflection (the
            // interface itself is selected too, by name, and has no code to trace).
            AgentProcess.Result again = target.agent("start", "filter=java.sql.Connection+::prepareStatement",
                    "monitor=Filtered=timing");
            assertEquals(0, again.exitCode, again::describe);
            assertTrue(again.stdout.endsWith("TF: tracing 1 class (2 selected, 0 left as they were)\n"),
                    again::describe);
            int before = Math.max(0, calls(target.agent("report").stdout,
                    "org.h2.jdbc.JdbcConnection.prepareStatement(String)"));
            assertEquals("org.h2.jdbc.JdbcConnection", target.ask("jdbc"));
            AgentProcess.Result retraced = target.agent("report");
            assertEquals(before + 5, calls(retraced.stdout, "org.h2.jdbc.JdbcConnection.prepareStatement(String)"),
                    retraced::describe);
        }
    }

    /** The count in the timing table's row for {@code method}; -1 without one. */
    private static int calls(String table, String method) {
        Matcher row = Pattern.compile("(?m)^\\s*" + Pattern.quote(method) + "\\s+(\\d+)\\s").matcher(table);
        return row.find() ? Integer.parseInt(row.group(1)) : -1;
    }
}
