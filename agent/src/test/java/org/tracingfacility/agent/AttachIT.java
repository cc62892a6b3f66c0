package org.tracingfacility.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracingfacility.core.EnhanceReport;
import org.tracingfacility.core.EnhanceRequest;
import org.tracingfacility.core.TfCore;

/**
 * {@code java -jar tf-agent.jar <pid> start|stop|status|report} against a running JVM: a program
 * of the test's whose worker threads call the traced methods throughout, with a monitor that
 * checks every exit against its own invocation's enter, and a small agent of the test's that
 * records the bytes the JVM holds for the traced class (a retransforming transformer, last in
 * the chain).
 */
class AttachIT {
    /** The traced class: outer calls inner, inner sometimes throws. */
    private static final String SHOP = "package app;\n"
            + "public class Shop {\n"
            + "  static final java.util.concurrent.ConcurrentSkipListMap<Integer, Integer> LAST = new java.util.concurrent.ConcurrentSkipListMap<>();\n"
            + "  public static int outer(int n) { try { return inner(n) + 1; } catch (IllegalStateException e) { return -1; } }\n"
            + "  static int inner(int n) { LAST.put(n % 16, n); if (n % 7 == 0) throw new IllegalStateException(\"seven\"); return n * 2; }\n"
            + "}\n";

    /**
     * A monitor factory that checks each thread's exits: the token of every exit must be the
     * one its thread's innermost open enter handed out, else the event is counted as unpaired.
     */
    private static final String BALANCE = "package app;\n"
            + "import java.util.*;\n"
            + "import java.util.concurrent.atomic.AtomicLong;\n"
            + "import org.tracingfacility.runtime.*;\n"
            + "public final class Balance implements MethodMonitorFactory {\n"
            + "  static final AtomicLong NEXT = new AtomicLong(1), ENTERS = new AtomicLong(), EXITS = new AtomicLong(),\n"
            + "      UNPAIRED = new AtomicLong(), OPEN = new AtomicLong();\n"
            + "  static final ThreadLocal<Deque<Long>> STACK = ThreadLocal.withInitial(ArrayDeque::new);\n"
            + "  static String counts() { return \"enters=\" + ENTERS + \" exits=\" + EXITS + \" open=\" + OPEN + \" unpaired=\" + UNPAIRED; }\n"
            + "  public MethodMonitor create(Class<?> cls) { return new Monitor(cls); }\n"
            + "  static final class Monitor implements MethodMonitor {\n"
            + "    private final Class<?> cls;\n"
            + "    Monitor(Class<?> cls) { this.cls = cls; }\n"
            + "    public Class<?> myClass() { return cls; }\n"
            + "    public long enterWithToken(int id, Object... args) {\n"
            + "      long token = NEXT.getAndIncrement(); STACK.get().push(token); ENTERS.incrementAndGet(); OPEN.incrementAndGet(); return token; }\n"
            + "    public void exitWithToken(int id, long token) { exited(token); }\n"
            + "    public void exitWithToken(int id, Object result, long token) { exited(token); }\n"
            + "    private void exited(long token) {\n"
            + "      Long innermost = STACK.get().poll();\n"
            + "      if (innermost == null || innermost != token) UNPAIRED.incrementAndGet(); else OPEN.decrementAndGet();\n"
            + "      EXITS.incrementAndGet(); }\n"
            + "    public void enter(int id, Object... args) { UNPAIRED.incrementAndGet(); }\n"
            + "    public void info(Object[] args, int caller, int self, TimingPointType tp) {}\n"
            + "    public void exit(int id) { UNPAIRED.incrementAndGet(); }\n"
            + "    public void exit(int id, Object result) { UNPAIRED.incrementAndGet(); }\n"
            + "    public void exception(int id, Throwable t) {}\n"
            + "    public void clear() {}\n"
            + "  }\n"
            + "}\n";

    /**
     * The test's own agent, attached after TF's: a retransforming transformer, called after TF's,
     * records the bytes the JVM holds for a class; their SHA-256 goes to a file.
     */
    private static final String HELD = "package app;\n"
            + "import java.lang.instrument.*;\n"
            + "import java.nio.file.*;\n"
            + "import java.security.*;\n"
            + "public final class Held {\n"
            + "  public static void agentmain(String args, Instrumentation inst) throws Exception {\n"
            + "    String[] classAndFile = args.split(\" \");\n"
            + "    Class<?> cls = null;\n"
            + "    for (Class<?> c : inst.getAllLoadedClasses()) if (c.getName().equals(classAndFile[0])) cls = c;\n"
            + "    Class<?> target = cls;\n"
            + "    byte[][] seen = new byte[1][];\n"
            + "    ClassFileTransformer last = new ClassFileTransformer() {\n"
            + "      public byte[] transform(ClassLoader l, String n, Class<?> c, ProtectionDomain d, byte[] b) {\n"
            + "        if (c == target) seen[0] = b.clone(); return null; } };\n"
            + "    inst.addTransformer(last, true);\n"
            + "    try { inst.retransformClasses(cls); } finally { inst.removeTransformer(last); }\n"
            + "    StringBuilder hex = new StringBuilder();\n"
            + "    for (byte b : MessageDigest.getInstance(\"SHA-256\").digest(seen[0])) hex.append(String.format(\"%02x\", b));\n"
            + "    Files.writeString(Paths.get(classAndFile[1]), hex);\n"
            + "  }\n"
            + "}\n";

    /** A TF group, and a class of it with an info method: what only a build can trace. */
    private static final String AUDIT = "package app;\n"
            + "@org.tracingfacility.annotation.MethodMonitorGroup\n"
            + "@java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.RUNTIME)\n"
            + "public @interface Audit {}\n";
    private static final String NOTED = "package app;\n"
            + "@Audit public class Noted {\n"
            + "  private static final Noted ONE = new Noted();\n"
            + "  @Audit public static int work(int n) { ONE.note(n); return n; }\n"
            + "  @org.tracingfacility.annotation.InfoMethod private void note(int n) {}\n"
            + "}\n";

    /** Worker threads call Shop.outer until told to stop; commands arrive on standard input. */
    private static final String TARGET = "package app;\n"
            + "import java.io.*;\n"
            + "import java.util.*;\n"
            + "public final class Target {\n"
            + "  static volatile boolean running = true;\n"
            + "  static volatile long sink;\n"
            + "  public static void main(String[] args) throws Exception {\n"
            + "    Noted.work(1);\n"
            + "    List<Thread> workers = new ArrayList<>();\n"
            + "    for (int t = 0; t < 4; t++) {\n"
            + "      Thread w = new Thread(() -> { int i = 0; while (running) sink += Shop.outer(i++) + Noted.work(i); }, \"worker-\" + t);\n"
            + "      w.start(); workers.add(w);\n"
            + "    }\n"
            + "    BufferedReader in = new BufferedReader(new InputStreamReader(System.in));\n"
            + "    System.out.println(\"ready\");\n"
            + "    for (String line; (line = in.readLine()) != null; ) {\n"
            + "      switch (line) {\n"
            + "        case \"counts\": System.out.println(Balance.counts()); break;\n"
            + "        case \"late\": System.out.println(Late.check(2) + \" \" + Balance.counts()); break;\n"
            + "        case \"quiesce\": running = false; for (Thread w : workers) w.join(); System.out.println(Balance.counts()); break;\n"
            + "        case \"exit\": System.exit(0);\n"
            + "        default: System.out.println(\"unknown \" + line);\n"
            + "      }\n"
            + "    }\n"
            + "  }\n"
            + "}\n";

    @TempDir
    Path work;

    /**
     * Loaded only when the target is told "late": its method carries JUnit 5's {@code @Test}, an
     * annotation from a real jar on the target's class path.
     */
    private static final String LATE = "package app;\n"
            + "public class Late {\n"
            + "  @org.junit.jupiter.api.Test public static int check(int n) { return n * 21; }\n"
            + "}\n";

    /** The jar of JUnit 5's {@code @Test}, as this test's own class path has it. */
    private static Path junitApi() throws Exception {
        return Paths.get(org.junit.jupiter.api.Test.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    private Path compiled() throws Exception {
        return AgentProcess.compileRelease(work, "11", Map.of("app.Shop", SHOP, "app.Balance", BALANCE, "app.Held", HELD,
                "app.Audit", AUDIT, "app.Noted", NOTED, "app.Target", TARGET, "app.Late", LATE), List.of(junitApi()));
    }

    private AttachTarget target(boolean runtimeOnClassPath) throws Exception {
        Path classes = compiled();
        return AttachTarget.start(work, runtimeOnClassPath
                ? List.of(classes, junitApi(), AgentProcess.runtimeJar()) : List.of(classes, junitApi()));
    }

    /**
     * As JFR's {@code JFR.start method-timing=} does, a start reaches classes loaded after it:
     * here by an {@code @Annotation} filter naming JUnit 5's {@code @Test}; {@code stop} restores
     * them too.
     */
    @Test
    void startTracesClassesLoadedAfterItByAnAnnotationFromARealJar() throws Exception {
        try (AttachTarget target = target(false)) {
            AgentProcess.Result started = target.agent("start", "filter=@org.junit.jupiter.api.Test",
                    "monitor=Filtered=app.Balance");
            // Late is not loaded yet: nothing to retransform, which the status tells a script.
            assertEquals(Reply.NOTHING_TRACED, started.exitCode, started::describe);
            assertEquals("TF: filter '@org.junit.jupiter.api.Test' selected no method of a loaded class;"
                    + " a class it selects that loads later is traced as it loads\n"
                    + "TF: tracing 0 classes (0 selected, 0 left as they were)\n", started.stderr, started::describe);
            assertEquals("42 enters=1 exits=1 open=0 unpaired=0", target.ask("late"));
            AgentProcess.Result status = target.agent("status");
            assertTrue(status.stdout.contains("TF: and 1 class traced as they loaded since start\n"), status::describe);

            AgentProcess.Result stopped = target.agent("stop");
            assertEquals(0, stopped.exitCode, stopped::describe);
            assertEquals("TF: stopped tracing 1 class; their code is as it was before start\n", stopped.stdout,
                    stopped::describe);
            assertEquals("42 enters=1 exits=1 open=0 unpaired=0", target.ask("late"), "no event after stop");
        }
    }

    /** A typo in a filter is named in one line, and the status says nothing is traced. */
    @Test
    void aStartWhoseFilterSelectsNoLoadedClassNamesItAndExitsNonZero() throws Exception {
        try (AttachTarget target = target(true)) {
            AgentProcess.Result typo = target.agent("start", "filter=app.Shopp");

            assertEquals(Reply.NOTHING_TRACED, typo.exitCode, typo::describe);
            assertEquals("TF: filter 'app.Shopp' selected no method of a loaded class;"
                    + " a class it selects that loads later is traced as it loads\n"
                    + "TF: tracing 0 classes (0 selected, 0 left as they were)\n", typo.stderr, typo::describe);

            // One filter of two selecting nothing: named, but something is traced (status 0).
            AgentProcess.Result oneOfTwo = target.agent("start", "filter=app.Shop", "filter=app.Target::nothing");
            assertEquals(0, oneOfTwo.exitCode, oneOfTwo::describe);
            assertTrue(oneOfTwo.stdout.endsWith("\nTF: filter 'app.Target::nothing' selected no method of a loaded class;"
                    + " a class it selects that loads later is traced as it loads\n"
                    + "TF: tracing 1 class (2 selected, 0 left as they were)\n"), oneOfTwo::describe);
        }
    }

    /** verbose names each class traced; neither start nor status counts those lines as refusals. */
    @Test
    void verboseNamesTheTracedClassesWithoutCountingThemAsLeftAsTheyWere() throws Exception {
        try (AttachTarget target = target(true)) {
            AgentProcess.Result started = target.agent("start", "filter=app.Shop", "verbose");

            assertEquals(0, started.exitCode, started::describe);
            assertEquals("TF: traced app.Shop\n"
                    + "TF: tracing 1 class (1 selected, 0 left as they were)\n", started.stdout, started::describe);
            AgentProcess.Result status = target.agent("status");
            assertEquals(0, status.exitCode, status::describe);
            assertTrue(status.stdout.startsWith("TF: tracing 1 class since start filter=app.Shop verbose\n  app.Shop\n"),
                    status::describe);
            assertFalse(status.stdout.contains("TF: traced"), status::describe);
        }
    }

    private static long count(String counts, String name) {
        for (String field : counts.split(" ")) {
            if (field.startsWith(name + "=")) {
                return Long.parseLong(field.substring(name.length() + 1));
            }
        }
        throw new AssertionError(name + " not in " + counts);
    }

    /** Waits until the workers have made events (they run all the time). */
    private static String countsOnceEntered(AttachTarget target, long above) throws Exception {
        for (int i = 0; i < 200; i++) {
            String counts = target.ask("counts");
            if (count(counts, "enters") > above) {
                return counts;
            }
            Thread.sleep(25);
        }
        throw new AssertionError("no events after start: " + target.ask("counts"));
    }

    @Test
    void startTracesTheRunningCodeStopRestoresItAndStartWorksAgain() throws Exception {
        try (AttachTarget target = target(true)) {
            String asLoaded = target.held("app.Shop");
            assertEquals("enters=0 exits=0 open=0 unpaired=0", target.ask("counts"));

            AgentProcess.Result started = target.agent("start", "filter=app.Shop", "monitor=Filtered=app.Balance");
            assertEquals(0, started.exitCode, started::describe);
            assertEquals("TF: tracing 1 class (1 selected, 0 left as they were)\n", started.stdout, started::describe);
            countsOnceEntered(target, 0);
            String traced = target.held("app.Shop");
            assertNotEquals(asLoaded, traced, "the JVM holds the traced class");

            AgentProcess.Result status = target.agent("status");
            assertEquals(0, status.exitCode, status::describe);
            assertTrue(status.stdout.startsWith("TF: tracing 1 class since start filter=app.Shop monitor=Filtered=app.Balance\n"
                    + "  app.Shop\n"), status::describe);
            assertTrue(status.stdout.contains("TF: monitor org.tracingfacility.annotation.Filtered = "), status::describe);

            AgentProcess.Result stopped = target.agent("stop");
            assertEquals(0, stopped.exitCode, stopped::describe);
            assertEquals("TF: stopped tracing 1 class; their code is as it was before start\n", stopped.stdout);
            // Events first: looking at the bytes retransforms the class again.
            long entersAtStop = count(target.ask("counts"), "enters");
            Thread.sleep(300);
            assertEquals(entersAtStop, count(target.ask("counts"), "enters"), "no event after stop");
            assertEquals(asLoaded, target.held("app.Shop"), "stop leaves the class as the JVM held it before start");

            AgentProcess.Result again = target.agent("start", "filter=app.Shop", "monitor=Filtered=app.Balance");
            assertEquals(0, again.exitCode, again::describe);
            countsOnceEntered(target, entersAtStop);
            // Traced again, reading its monitor from new sites (a start declares its own).
            assertNotEquals(asLoaded, target.held("app.Shop"), "started again: traced again");
            assertEquals(0, target.agent("stop").exitCode);

            String quiet = target.ask("quiesce");
            assertEquals(0, count(quiet, "unpaired"), "every exit had its own invocation's enter: " + quiet);
            assertEquals(0, count(quiet, "open"), "every enter had its exit: " + quiet);
            assertEquals(count(quiet, "enters"), count(quiet, "exits"), quiet);
        }
    }

    @Test
    void badOptionsAreRefusedWithTheReasonAndTheTargetRunsOn() throws Exception {
        try (AttachTarget target = target(true)) {
            AgentProcess.Result unknownCommand = target.agent("begin");
            assertEquals(2, unknownCommand.exitCode, unknownCommand::describe);
            assertEquals("TF: unknown command 'begin': give one of start, stop, status, report\n", unknownCommand.stderr);

            AgentProcess.Result badFilter = target.agent("start", "filter=app.Shop::");
            assertEquals(1, badFilter.exitCode, badFilter::describe);
            assertTrue(badFilter.stderr.startsWith("TF: ") && badFilter.stderr.contains("app.Shop::")
                    && badFilter.stderr.endsWith("; nothing was started\n"), badFilter::describe);

            AgentProcess.Result badGroup = target.agent("start", "filter=app.Shop", "monitor=NoSuchGroup=timing");
            assertEquals(1, badGroup.exitCode, badGroup::describe);
            assertTrue(badGroup.stderr.contains("NoSuchGroup") && badGroup.stderr.endsWith("; nothing was started\n"),
                    badGroup::describe);

            AgentProcess.Result badFactory = target.agent("start", "filter=app.Shop", "monitor=Filtered=noSuchFactory");
            assertEquals(1, badFactory.exitCode, badFactory::describe);
            assertTrue(badFactory.stderr.contains("noSuchFactory"), badFactory::describe);

            assertEquals("TF: nothing is traced\n", target.agent("status").stdout);
            assertEquals("enters=0 exits=0 open=0 unpaired=0", target.ask("counts"), "the target runs on, untraced");
        }
    }

    @Test
    void aClassOnlyABuildCanTraceIsLeftAsItWasInOneLine() throws Exception {
        try (AttachTarget target = target(true)) {
            AgentProcess.Result started = target.agent("start", "filter=app.Shop", "monitor=app.Audit=app.Balance");
            assertEquals(0, started.exitCode, started::describe);
            assertEquals("TF: app.Noted left as it is: an info method needs stage 1 at build time: it gains two "
                    + "parameters, and a running JVM accepts no changed signature; build the class with "
                    + "tracegen=false to trace it at run time [retransform-info-method] in note(I)V\n"
                    + "TF: tracing 1 class (2 selected, 1 left as they were)\n", started.stdout, started::describe);
        }
    }

    @Test
    void aClassBuiltAtStageOneGetsItsStageTwoAndLosesItAgainAtStop() throws Exception {
        Path classes = compiled();
        EnhanceReport stageOne = TfCore.enhance(EnhanceRequest.builder(classes.toString()).tracegen(false)
                .classpath(List.of(AgentProcess.runtimeJar().toString())).build());
        assertTrue(stageOne.ok() && stageOne.classesEnhanced() == 1, () -> stageOne.errors().toString());
        try (AttachTarget target = AttachTarget.start(work, List.of(classes, AgentProcess.runtimeJar()))) {
            String asLoaded = target.held("app.Noted");
            assertEquals("enters=0 exits=0 open=0 unpaired=0", target.ask("counts"), "stage 1 alone has no tracing code");

            AgentProcess.Result started = target.agent("start", "monitor=Audit=app.Balance");
            assertEquals(0, started.exitCode, started::describe);
            assertEquals("TF: tracing 1 class (1 selected, 0 left as they were)\n", started.stdout, started::describe);
            countsOnceEntered(target, 0);
            assertNotEquals(asLoaded, target.held("app.Noted"));

            assertEquals(0, target.agent("stop").exitCode);
            long entersAtStop = count(target.ask("counts"), "enters");
            Thread.sleep(300);
            assertEquals(entersAtStop, count(target.ask("counts"), "enters"), "no event after stop");
            assertEquals(asLoaded, target.held("app.Noted"), "back at stage 1, as loaded");
            String quiet = target.ask("quiesce");
            assertEquals(0, count(quiet, "unpaired"), quiet);
            assertEquals(0, count(quiet, "open"), quiet);
        }
    }

    @Test
    void withoutTfRuntimeOnItsClassPathTheTargetGetsTheAgentsAndJdkClassesAreTracedToo() throws Exception {
        try (AttachTarget target = target(false)) {
            AgentProcess.Result started = target.agent("start",
                    "filter=app.Shop::outer;java.util.concurrent.ConcurrentSkipListMap::put;java.lang.StringBuilder::append;"
                            + "java.util.ArrayList::add",
                    "monitor=Filtered=timing");
            assertEquals(0, started.exitCode, started::describe);
            // ArrayList and StringBuilder, which the agent and the monitors use themselves, are
            // traced too (ArrayList once overflowed the target's stack, when a traced method
            // linked its monitor's call site through java.lang.invoke, which calls ArrayList.add).
            assertEquals("TF: tracing 4 classes (4 selected, 0 left as they were)\n", started.stdout, started::describe);
            Thread.sleep(300);
            AgentProcess.Result report = target.agent("report");
            assertEquals(0, report.exitCode, report::describe);
            assertTrue(report.stdout.contains("\napp.Shop.outer(int) "), report::describe);
            assertTrue(report.stdout.contains("\njava.util.concurrent.ConcurrentSkipListMap.put(Object,Object) "),
                    report::describe);
            AgentProcess.Result stopped = target.agent("stop");
            assertEquals("TF: stopped tracing 4 classes; their code is as it was before start\n", stopped.stdout,
                    stopped::describe);
        }
    }

    @Test
    void everyJdkClassIsTracedWhileFourThreadsRunThroughThemAndTheTargetRunsOn() throws Exception {
        try (AttachTarget target = target(false)) {
            AgentProcess.Result started = target.agent("start", "filter=java.**;javax.**", "monitor=Filtered=timing");
            assertEquals(0, started.exitCode, started::describe);
            // Every loaded JDK class is traced but Object, while four threads run through them.
            String[] lines = started.stdout.split("\n");
            assertEquals(2, lines.length, started::describe);
            assertTrue(lines[0].startsWith("TF: java.lang.Object left as it is: "), started::describe);
            assertTrue(lines[1].matches("TF: tracing \\d{3,} classes \\(\\d+ selected, 1 left as they were\\)"),
                    started::describe);
            Thread.sleep(300);
            // The target still answers and still runs its own code.
            assertTrue(target.ask("counts").startsWith("enters="), "the target answers");
            AgentProcess.Result report = target.agent("report");
            assertEquals(0, report.exitCode, report::describe);
            // The workers' calls into the JDK, timed.
            assertTrue(report.stdout.contains("\njava.util.concurrent.ConcurrentSkipListMap.put(Object,Object) "),
                    report::describe);
            AgentProcess.Result stopped = target.agent("stop");
            assertEquals(0, stopped.exitCode, stopped::describe);
            assertTrue(stopped.stdout.endsWith("; their code is as it was before start\n"), stopped::describe);
        }
    }
}
