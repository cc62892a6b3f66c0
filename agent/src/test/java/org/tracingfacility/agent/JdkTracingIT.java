package org.tracingfacility.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * JEP 520's examples (JFR method timing and tracing, JDK 25) in TF's syntax, on the JDK's own
 * classes, with the agent at load time, in real JVMs with the verifier on; what a user sees is
 * asserted: the timing table, {@code jfr print}'s stacks, a recording monitor's events.
 */
class JdkTracingIT {
    /** Records each event of the JDK's classes as a line; prints them when asked. */
    private static final String RECORDING = "package app;\n"
            + "import java.util.*;\n"
            + "import org.tracingfacility.runtime.*;\n"
            + "public final class Recording implements MethodMonitorFactory {\n"
            + "  public static final List<String> EVENTS = Collections.synchronizedList(new ArrayList<>());\n"
            + "  public MethodMonitor create(Class<?> cls) { return new Monitor(cls); }\n"
            + "  public static List<String> take() { synchronized (EVENTS) { List<String> l = new ArrayList<>(EVENTS); EVENTS.clear(); return l; } }\n"
            + "  static final class Monitor implements MethodMonitor {\n"
            + "    private final Class<?> cls;\n"
            + "    Monitor(Class<?> cls) { this.cls = cls; }\n"
            + "    private String name(int id) { return cls.getSimpleName() + '.' + MethodMonitorRegistry.methodName(cls, id); }\n"
            + "    public Class<?> myClass() { return cls; }\n"
            + "    public void enter(int id, Object... args) { EVENTS.add(\"enter \" + name(id)); }\n"
            + "    public void info(Object[] args, int caller, int self, TimingPointType tp) { }\n"
            + "    public void exit(int id) { EVENTS.add(\"exit \" + name(id)); }\n"
            + "    public void exit(int id, Object result) { EVENTS.add(\"exit \" + name(id)); }\n"
            + "    public void exception(int id, Throwable t) { EVENTS.add(\"exception \" + name(id)); }\n"
            + "    public void clear() {}\n"
            + "  }\n"
            + "}\n";

    @TempDir
    Path work;

    /**
     * JEP 520: "what triggers the resize of a HashMap". The jfr monitor's trace events carry the
     * stack as JFR's {@code jdk.MethodTrace} does: {@code jfr print} shows the resize, the JDK
     * methods that called it and the application's method that called them.
     */
    @Test
    void hashMapResizeIsTracedWithTheCallersThatTriggeredIt() throws Exception {
        Path classes = AgentProcess.compile(work, Map.of("app.Grow", "package app;\n"
                + "import java.util.HashMap;\n"
                + "public class Grow {\n"
                + "  public static void main(String[] args) {\n"
                + "    HashMap<Integer, Integer> map = new HashMap<>();\n"
                + "    fill(map);\n"
                + "    System.out.println(\"size \" + map.size());\n"
                + "  }\n"
                + "  static void fill(HashMap<Integer, Integer> map) { for (int i = 0; i < 100; i++) map.put(i, i); }\n"
                + "}\n"));
        Path recording = work.resolve("resize.jfr");
        AgentProcess.Result run = AgentProcess.run("filter=java.util.HashMap::resize,monitor=Filtered=jfr",
                List.of("-XX:StartFlightRecording=filename=" + recording + ",settings=profile"),
                List.of(classes), "app.Grow");
        assertEquals(0, run.exitCode, run::describe);
        // JFR's own start-up lines ("[0.3s][info][jfr,startup] ...") share standard output.
        assertEquals("size 100\n", run.stdout.replaceAll("(?m)^\\[[^\n]*\\]\\[jfr,startup\\].*\n", ""),
                run::describe);
        assertTrue(run.agentLines().isEmpty(), run::describe);

        String printed = jfrPrint(recording, "org.tracingfacility.MethodTrace");
        List<String> stacks = eventsOf(printed);
        List<String> fromTheApplication = new ArrayList<>();
        for (String event : stacks) {
            if (event.contains("app.Grow.fill")) {
                fromTheApplication.add(event);
            }
        }
        // 100 entries from an empty map: the first table, then doubling at 12, 24, 48 and 96.
        assertEquals(5, fromTheApplication.size(), printed);
        for (String event : fromTheApplication) {
            assertTrue(event.contains("method = \"java.util.HashMap.resize\""), event);
            assertInOrder(event, "java.util.HashMap.resize()", "java.util.HashMap.putVal(",
                    "java.util.HashMap.put(", "app.Grow.fill(", "app.Grow.main(");
        }
    }

    /**
     * JEP 520's file-descriptor leak hunt: every FileDescriptor the application opens through a
     * stream is seen created and closed, in pairs.
     */
    @Test
    void fileDescriptorsAreSeenOpenedAndClosedInPairs() throws Exception {
        Path classes = AgentProcess.compile(work, Map.of("app.Recording", RECORDING, "app.Files3", "package app;\n"
                + "import java.io.*;\n"
                + "public class Files3 {\n"
                + "  public static void main(String[] args) throws IOException {\n"
                + "    File file = File.createTempFile(\"tf-fd\", \".txt\");\n"
                + "    Recording.take();\n"
                + "    for (int i = 0; i < 3; i++) {\n"
                + "      try (FileOutputStream out = new FileOutputStream(file)) { out.write(i); }\n"
                + "      try (FileInputStream in = new FileInputStream(file)) { System.out.println(\"read \" + in.read()); }\n"
                + "    }\n"
                + "    file.delete();\n"
                + "    for (String event : Recording.take()) System.out.println(event);\n"
                + "  }\n"
                + "}\n"));
        AgentProcess.Result run = AgentProcess.run(
                "filter=java.io.FileDescriptor::<init>;java.io.FileDescriptor::close,monitor=Filtered=app.Recording",
                List.of(classes), "app.Files3");
        assertEquals(0, run.exitCode, run::describe);
        StringBuilder expected = new StringBuilder("read 0\nread 1\nread 2\n");
        for (int i = 0; i < 6; i++) {
            expected.append("enter FileDescriptor.<init>()\nexit FileDescriptor.<init>()\n");
            expected.append("enter FileDescriptor.close\nexit FileDescriptor.close\n");
        }
        assertEquals(expected.toString(), run.stdout, run::describe);
    }

    /**
     * JEP 520's slow start-up hunt: {@code ::<clinit>} times the static initializers of the
     * classes initialized after the agent started, the application's and the JDK's alike.
     */
    @Test
    void staticInitializersOfApplicationAndJdkClassesAreTimed() throws Exception {
        Path classes = AgentProcess.compile(work, Map.of("app.Start", "package app;\n"
                + "public class Start {\n"
                + "  static class Config { static final long LOADED = System.nanoTime(); }\n"
                + "  public static void main(String[] args) throws Exception {\n"
                + "    System.out.println(Config.LOADED > 0);\n"
                + "    System.out.println(new java.util.concurrent.Exchanger<String>() != null);\n"
                + "    System.out.println(Class.forName(\"org.tracingfacility.runtime.support.ThreadKeys\")\n"
                + "        .getMethod(\"byThreadId\").invoke(null));\n"
                + "  }\n"
                + "}\n"));
        AgentProcess.Result run = AgentProcess.run("filter=::<clinit>,monitor=Filtered=timing", List.of(classes),
                "app.Start");
        assertEquals(0, run.exitCode, run::describe);
        // The last line: the agent opens thread ids to the runtime in the same grant.
        assertEquals("true\ntrue\ntrue\n", run.stdout, run::describe);
        assertTrue(timedRow(run.stderr, "app.Start$Config.<clinit>"), run::describe);
        assertTrue(timedRow(run.stderr, "java.util.concurrent.Exchanger.<clinit>"), run::describe);
        // The agent opens JFR's tick counter to the runtime on a thread of its own as it starts
        // (ParallelStart); the clock and the thread keys wait for that before they choose.
        assertTrue(run.stderr.contains("Clock: JFR's tick counter, "), run::describe);
    }

    /**
     * Classes the agent refused before (java.lang, java.util): StringBuilder, ArrayList,
     * ConcurrentHashMap traced while the recording monitor itself uses them, without recursion
     * and without the monitor's own calls among the events.
     */
    @Test
    void classesTheMonitorsThemselvesUseAreTracedWithoutRecursion() throws Exception {
        Path classes = AgentProcess.compile(work, Map.of("app.Recording", RECORDING, "app.Uses", "package app;\n"
                + "import java.util.*;\n"
                + "import java.util.concurrent.ConcurrentHashMap;\n"
                + "public class Uses {\n"
                + "  public static void main(String[] args) {\n"
                + "    Recording.take();\n"
                + "    StringBuilder text = new StringBuilder();\n"
                + "    text.append(\"a\");\n"
                + "    List<String> list = new ArrayList<>();\n"
                + "    list.add(text.toString());\n"
                + "    Map<String, Integer> map = new ConcurrentHashMap<>();\n"
                + "    map.put(\"k\", list.size());\n"
                + "    System.out.println(map.get(\"k\"));\n"
                + "    for (String event : Recording.take()) System.out.println(event);\n"
                + "  }\n"
                + "}\n"));
        AgentProcess.Result run = AgentProcess.run("filter=java.lang.StringBuilder::append;java.lang.StringBuilder::toString;"
                + "java.util.ArrayList::add;java.util.ArrayList::size;java.util.concurrent.ConcurrentHashMap::get,"
                + "monitor=Filtered=app.Recording", List.of(classes), "app.Uses");
        assertEquals(0, run.exitCode, run::describe);
        List<String> calls = topLevel(run.stdout);
        // The application's own calls, in order (a class loading on its thread may add others).
        assertEquals(List.of("1", "StringBuilder.append(String)", "StringBuilder.toString", "ArrayList.add(Object)",
                "ArrayList.size", "ConcurrentHashMap.get"), subsequence(calls, List.of("1",
                "StringBuilder.append(String)", "StringBuilder.toString", "ArrayList.add(Object)", "ArrayList.size",
                "ConcurrentHashMap.get")), run::describe);
        // The recording monitor adds to an ArrayList at every event: none of those is an event.
        assertEquals(1, calls.stream().filter(c -> c.startsWith("ArrayList.add")).count(), run::describe);
        assertTrue(balanced(run.stdout), run::describe);
        assertTrue(run.agentLines().isEmpty(), run::describe);
    }

    /** Four threads of a pool, each calling {@code step} 1000 times through a ThreadLocal and a HashMap. */
    private static final String THREADS = "package app;\n"
            + "import java.util.*;\n"
            + "import java.util.concurrent.*;\n"
            + "public class Threads {\n"
            + "  static final ThreadLocal<int[]> CALLS = ThreadLocal.withInitial(() -> new int[1]);\n"
            + "  public static void main(String[] args) throws Exception {\n"
            + "    ExecutorService pool = Executors.newFixedThreadPool(4);\n"
            + "    List<Future<Integer>> results = new ArrayList<>();\n"
            + "    for (int t = 0; t < 4; t++) results.add(pool.submit(Threads::work));\n"
            + "    int sum = 0;\n"
            + "    for (Future<Integer> result : results) sum += result.get();\n"
            + "    pool.shutdown();\n"
            + "    System.out.println(\"sum \" + sum);\n"
            + "  }\n"
            + "  static int work() {\n"
            + "    Map<Integer, Integer> map = new HashMap<>();\n"
            + "    for (int i = 0; i < 1000; i++) step(map, i);\n"
            + "    return CALLS.get()[0];\n"
            + "  }\n"
            + "  static void step(Map<Integer, Integer> map, int i) { CALLS.get()[0]++; map.put(i, i); }\n"
            + "}\n";

    /**
     * What the slow paths of {@code timing} and {@code profile} run (the factory's
     * {@code ThreadLocal}, {@code Arrays.copyOf}, a new thread's first use), what a method
     * handle's invokers run, the JDK's methods that C2 compiles to instructions but the
     * interpreter runs as bytecode ({@code Math.min}, {@code Long.numberOfLeadingZeros}), and
     * the application.
     */
    private static final String WHAT_MONITORS_USE = "filter=java.lang.ThreadLocal;java.lang.ThreadLocal$ThreadLocalMap;"
            + "java.lang.invoke.**;java.lang.Math;java.lang.StrictMath;java.lang.Long;java.lang.Integer;"
            + "java.lang.Double;java.lang.Thread;java.lang.System;java.util.HashMap;java.util.Arrays;"
            + "java.util.ArrayList;java.util.concurrent.**;app.Threads";

    /**
     * {@code timing} is handed out without the per-thread mark and guards its own slow paths
     * (a thread's first call: the factory's {@code ThreadLocal}, new statistics, a growing
     * array) and reads the clock without {@code java.lang.invoke}. Here the classes those
     * paths and a method handle's invokers run are traced with {@code timing} themselves,
     * and threads of a pool take their first timed calls: a path that reached a monitor
     * outside the mark would recurse until the stack overflows. Every call of the
     * application is counted once.
     */
    @Test
    void timingTracesTheClassesItsOwnSlowPathsUseOnNewThreadsWithoutRecursion() throws Exception {
        Path classes = AgentProcess.compile(work, Map.of("app.Threads", THREADS));
        AgentProcess.Result run = AgentProcess.run(WHAT_MONITORS_USE + ",monitor=Filtered=timing", List.of(classes),
                "app.Threads");
        assertEquals(0, run.exitCode, run::describe);
        assertEquals("sum 4000\n", run.stdout, run::describe);
        assertEquals(4000, invocations(run.stderr, "app.Threads.step(Map,int)"), run::describe);
        assertEquals(4, invocations(run.stderr, "app.Threads.work()"), run::describe);
        assertTrue(invocations(run.stderr, "java.lang.ThreadLocal.get()") >= 4004, run::describe);
        assertTrue(run.stderr.contains("Clock: JFR's tick counter"), run::describe);
    }

    /** The same for {@code profile}: its thread look-up and new contexts are its slow paths. */
    @Test
    void profileTracesTheClassesItsOwnSlowPathsUseOnNewThreadsWithoutRecursion() throws Exception {
        Path classes = AgentProcess.compile(work, Map.of("app.Threads", THREADS));
        Path folded = work.resolve("threads.folded");
        AgentProcess.Result run = AgentProcess.run(WHAT_MONITORS_USE + ",monitor=Filtered=profile",
                List.of("-Dtf.profile.output=" + folded), List.of(classes), "app.Threads");
        assertEquals(0, run.exitCode, run::describe);
        assertEquals("sum 4000\n", run.stdout, run::describe);
        String stacks = new String(java.nio.file.Files.readAllBytes(folded));
        assertTrue(stacks.contains("app.Threads.work;app.Threads.step;java.lang.ThreadLocal.get"), stacks);
        assertTrue(stacks.contains("app.Threads.work;app.Threads.step;java.util.HashMap.put"), stacks);
    }

    /** The invocations of {@code method} in the timing table at exit; -1 without a row. */
    private static long invocations(String stderr, String method) {
        Matcher row = Pattern.compile("(?m)^\\s*" + Pattern.quote(method) + "\\s+(\\d+)\\s").matcher(stderr);
        return row.find() ? Long.parseLong(row.group(1)) : -1;
    }

    /** {@code jfr print --events <event> --stack-depth 20 <file>}, as a user runs it. */
    private static String jfrPrint(Path recording, String event) throws Exception {
        Path jfr = Paths.get(System.getProperty("java.home"), "bin", "jfr");
        Process process = new ProcessBuilder(jfr.toString(), "print", "--events", event, "--stack-depth", "20",
                recording.toString()).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes());
        assertEquals(0, process.waitFor(), out);
        return out;
    }

    /** Each printed event's text. */
    private static List<String> eventsOf(String printed) {
        List<String> events = new ArrayList<>();
        for (String event : printed.split("\norg\\.tracingfacility\\.MethodTrace ")) {
            if (event.contains("method = ")) {
                events.add(event);
            }
        }
        return events;
    }

    private static void assertInOrder(String text, String... parts) {
        int at = 0;
        for (String part : parts) {
            int found = text.indexOf(part, at);
            assertTrue(found >= 0, "'" + part + "' after position " + at + " in:\n" + text);
            at = found + part.length();
        }
    }

    /** Whether the timing table at exit has a row for {@code method} with at least one call. */
    private static boolean timedRow(String stderr, String method) {
        Matcher row = Pattern.compile("(?m)^\\s*" + Pattern.quote(method) + "\\s+(\\d+)\\s").matcher(stderr);
        return row.find() && Integer.parseInt(row.group(1)) > 0;
    }

    /**
     * The calls entered at the top level (a traced JDK method that a traced one calls is the
     * JDK's business), and the program's other lines, in order.
     */
    private static List<String> topLevel(String stdout) {
        List<String> kept = new ArrayList<>();
        int depth = 0;
        for (String line : stdout.split("\n")) {
            if (line.startsWith("enter ")) {
                if (depth++ == 0) {
                    kept.add(line.substring("enter ".length()));
                }
            } else if (line.startsWith("exit ")) {
                depth--;
            } else {
                kept.add(line);
            }
        }
        return kept;
    }

    /** Whether every exit closes the innermost open enter of the same method. */
    private static boolean balanced(String stdout) {
        java.util.Deque<String> open = new java.util.ArrayDeque<>();
        for (String line : stdout.split("\n")) {
            if (line.startsWith("enter ")) {
                open.push(line.substring("enter ".length()));
            } else if (line.startsWith("exit ") && !line.substring("exit ".length()).equals(open.poll())) {
                return false;
            }
        }
        return open.isEmpty();
    }

    /** The elements of {@code wanted} found in {@code all} in order, as far as they are. */
    private static List<String> subsequence(List<String> all, List<String> wanted) {
        List<String> found = new ArrayList<>();
        int at = 0;
        for (String item : all) {
            if (at < wanted.size() && item.equals(wanted.get(at))) {
                found.add(item);
                at++;
            }
        }
        return found;
    }
}
