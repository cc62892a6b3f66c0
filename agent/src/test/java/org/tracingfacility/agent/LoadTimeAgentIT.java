package org.tracingfacility.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracingfacility.core.EnhanceReport;
import org.tracingfacility.core.EnhanceRequest;
import org.tracingfacility.core.TfCore;

/**
 * {@code -javaagent:tf-agent.jar=...} on small programs compiled here, in real JVMs with the
 * verifier on; a recording monitor (named by the agent's {@code monitor=} option) prints every
 * event, and the tests assert the exact sequence.
 */
class LoadTimeAgentIT {
    /** A monitor factory by class name, as {@code monitor=Group=app.Recording} names it. */
    private static final String RECORDING = "package app;\n"
            + "import java.util.*;\n"
            + "import org.tracingfacility.runtime.*;\n"
            + "public final class Recording implements MethodMonitorFactory {\n"
            + "  public static final List<String> EVENTS = new ArrayList<>();\n"
            + "  public MethodMonitor create(Class<?> cls) { return new Monitor(cls); }\n"
            // A copy first: with java.** traced, println itself adds events while they print.
            + "  public static void dump() { List<String> l = new ArrayList<>(EVENTS); EVENTS.clear(); for (String e : l) System.out.println(e); }\n"
            + "  static final class Monitor implements MethodMonitor {\n"
            + "    private final Class<?> cls;\n"
            + "    Monitor(Class<?> cls) { this.cls = cls; }\n"
            + "    private String name(int id) { return cls.getSimpleName() + '.' + MethodMonitorRegistry.methodName(cls, id); }\n"
            + "    public Class<?> myClass() { return cls; }\n"
            + "    public void enter(int id, Object... args) { EVENTS.add(\"enter \" + name(id) + ' ' + Arrays.toString(args)); }\n"
            + "    public void info(Object[] args, int caller, int self, TimingPointType tp) { EVENTS.add(\"info \" + name(self)); }\n"
            + "    public void exit(int id) { EVENTS.add(\"exit \" + name(id)); }\n"
            + "    public void exit(int id, Object result) { EVENTS.add(\"exit \" + name(id) + \" = \" + result); }\n"
            + "    public void exception(int id, Throwable t) { EVENTS.add(\"exception \" + name(id) + ' ' + t); }\n"
            + "    public void clear() {}\n"
            + "  }\n"
            + "}\n";

    private static final String SHOP = "package app;\n"
            + "public class Shop {\n"
            + "  private int items;\n"
            + "  public int add(String item) { items++; return items; }\n"
            + "  public static int price(int n) { if (n < 0) throw new IllegalArgumentException(\"negative: \" + n); return n * 3; }\n"
            + "}\n";

    private static final String MAIN = "package app;\n"
            + "public class Main {\n"
            + "  public static void main(String[] args) {\n"
            + "    Shop shop = new Shop();\n"
            + "    System.out.println(\"added \" + shop.add(\"pen\"));\n"
            + "    System.out.println(\"price \" + Shop.price(2));\n"
            + "    try { Shop.price(-1); } catch (IllegalArgumentException e) { System.out.println(\"refused\"); }\n"
            + "    Recording.dump();\n"
            + "  }\n"
            + "}\n";

    @TempDir
    Path work;

    private Path compiledShop() throws Exception {
        return AgentProcess.compile(work, Map.of("app.Recording", RECORDING, "app.Shop", SHOP, "app.Main", MAIN));
    }

    @Test
    void theClassesAFilterSelectsAreTracedAsTheyLoad() throws Exception {
        Path classes = compiledShop();
        AgentProcess.Result run = AgentProcess.run("filter=app.Shop,monitor=Filtered=app.Recording",
                List.of(classes), "app.Main");

        assertEquals(0, run.exitCode, run::describe);
        assertEquals("added 1\nprice 6\nrefused\n"
                + "enter Shop.<init> []\n"
                + "exit Shop.<init>\n"
                + "enter Shop.add [pen]\n"
                + "exit Shop.add = 1\n"
                + "enter Shop.price [2]\n"
                + "exit Shop.price = 6\n"
                + "enter Shop.price [-1]\n"
                + "exception Shop.price java.lang.IllegalArgumentException: negative: -1\n"
                + "exit Shop.price = null\n", run.stdout, run::describe);
        assertEquals(List.of(), run.agentLines(), "nothing to say without verbose");
    }

    /**
     * The broadest JDK filter: every JDK class the application loads is traced or refused by name,
     * and the application runs as without the agent. (Printing a refusal while the JVM loaded
     * java.nio.charset.CoderResult failed the agent's start with a ClassCircularityError, which
     * the JVM answered by aborting.)
     */
    @Test
    void everyJdkClassAFilterCanNameIsTracedAndTheApplicationRuns() throws Exception {
        Path classes = compiledShop();
        AgentProcess.Result run = AgentProcess.run("filter=java.**;javax.**;app.Shop::add,monitor=Filtered=app.Recording",
                List.of(classes), "app.Main");

        assertEquals(0, run.exitCode, run::describe);
        assertTrue(run.stdout.startsWith("added 1\nprice 6\nrefused\n"), run::describe);
        assertTrue(run.stdout.contains("\nenter Shop.add [pen]\nexit Shop.add = 1\n"), run::describe);
        // The JDK's calls the application made are traced, println's included, and the
        // recording monitor's own (ArrayList.add, Arrays.toString) are not.
        assertTrue(run.stdout.contains("\nenter PrintStream.println(String) [added 1]\n"), run::describe);
        assertTrue(!run.stdout.contains("enter ArrayList.add [enter"), run::describe);
    }

    /**
     * A monitor provider on the application's class path, found by name although tf-runtime
     * (which looks for providers) is on the boot class path; and a tf-runtime also on the
     * application's class path, which the agent's copy shadows, so that both see one registry.
     */
    @Test
    void aMonitorProviderOnTheApplicationsClassPathIsFoundByName() throws Exception {
        Map<String, String> sources = new HashMap<>();
        sources.put("app.Recording", RECORDING);
        sources.put("app.Shop", SHOP);
        sources.put("app.Main", MAIN);
        sources.put("app.RecordingProvider", "package app;\n"
                + "public final class RecordingProvider implements org.tracingfacility.runtime.MethodMonitorFactoryProvider {\n"
                + "  public String name() { return \"recording\"; }\n"
                + "  public org.tracingfacility.runtime.MethodMonitorFactory create() { return new Recording(); }\n"
                + "}\n");
        Path classes = AgentProcess.compile(work, sources);
        Path services = classes.resolve("META-INF/services/org.tracingfacility.runtime.MethodMonitorFactoryProvider");
        Files.createDirectories(services.getParent());
        Files.writeString(services, "app.RecordingProvider\n");

        AgentProcess.Result run = AgentProcess.run("filter=app.Shop::add,monitor=Filtered=recording",
                List.of(classes, AgentProcess.runtimeJar()), "app.Main");

        assertEquals(0, run.exitCode, run::describe);
        assertEquals("added 1\nprice 6\nrefused\nenter Shop.add [pen]\nexit Shop.add = 1\n", run.stdout, run::describe);
        assertEquals(List.of(), run.agentLines(), run::describe);
    }

    @Test
    void verboseNamesEachClassEnhancedAndCountsThemAtExit() throws Exception {
        Path classes = compiledShop();
        AgentProcess.Result run = AgentProcess.run("filter=app.Shop,verbose", List.of(classes), "app.Main");

        assertEquals(0, run.exitCode, run::describe);
        assertEquals("added 1\nprice 6\nrefused\n", run.stdout, "no monitor named: no events");
        List<String> lines = run.agentLines();
        assertTrue(lines.contains("TF agent: enhanced app.Shop"), run::describe);
        assertTrue(lines.get(lines.size() - 1).startsWith("TF agent: 1 classes enhanced, 0 left as they were;"),
                run::describe);
    }

    /**
     * A JVM started again asks the core what an earlier one asked: the replies kept on the
     * machine answer, and the native library is not loaded at all (issue 50: start-up).
     */
    @Test
    void aRunStartedAgainIsAnsweredByTheRepliesOfEarlierRunsWithoutTheNativeLibrary() throws Exception {
        Path classes = compiledShop();
        String options = "filter=app.Shop,monitor=Filtered=app.Recording,verbose";
        AgentProcess.Result first = AgentProcess.run(options, List.of(classes), "app.Main");
        Path loaded = work.resolve("classes-loaded.txt");
        AgentProcess.Result again = AgentProcess.run(options, List.of("-Xlog:class+load:file=" + loaded),
                List.of(classes), "app.Main");

        assertEquals(0, again.exitCode, again::describe);
        assertEquals(first.stdout, again.stdout, "the same events");
        assertTrue(again.stdout.contains("enter Shop.add [pen]"), again::describe);
        String summary = again.agentLines().get(again.agentLines().size() - 1);
        assertTrue(summary.contains("1 calls of the core (2 answered by earlier runs' replies)"), again::describe);
        assertFalse(Files.readString(loaded).contains("org.tracingfacility.core.NativeCore "),
                "the native library's class was not loaded");

        AgentProcess.Result asked = AgentProcess.run(options, List.of("-Dtf.agent.cache=false",
                "-Xlog:class+load:file=" + loaded), List.of(classes), "app.Main");
        assertEquals(first.stdout, asked.stdout, "the same events from the core itself");
        String askedSummary = asked.agentLines().get(asked.agentLines().size() - 1);
        assertTrue(askedSummary.contains("(0 answered by earlier runs' replies)"), asked::describe);
        assertTrue(Files.readString(loaded).contains("org.tracingfacility.core.NativeCore "),
                "-Dtf.agent.cache=false asks the core");
    }

    /** Only at exit does a load-time agent know that no class a filter selects has loaded. */
    @Test
    void eachFilterThatSelectedNothingIsNamedInOneLineAtExit() throws Exception {
        Path classes = compiledShop();
        AgentProcess.Result run = AgentProcess.run("filter=app.Shop,app.Shopp,::checkot", List.of(classes), "app.Main");

        assertEquals(0, run.exitCode, run::describe);
        String why = "' selected no method of any class loaded before exit: nothing was traced for it"
                + " (check the class, method or annotation it names)";
        assertEquals(List.of("TF agent: filter 'app.Shopp" + why, "TF agent: filter '::checkot" + why),
                run.agentLines(), run::describe);
    }

    @Test
    void badOptionsSayWhatIsWrongAndTheApplicationRunsUntraced() throws Exception {
        Path classes = compiledShop();
        String untraced = "added 1\nprice 6\nrefused\n";
        // Without the agent, Recording needs the runtime from the class path.
        List<Path> classPath = List.of(classes, AgentProcess.runtimeJar());

        AgentProcess.Result misspelt = AgentProcess.run("filtr=app.Shop,monitor=Filtered=app.Recording",
                classPath, "app.Main");
        assertEquals(0, misspelt.exitCode, misspelt::describe);
        assertEquals(untraced, misspelt.stdout, misspelt::describe);
        assertEquals(List.of("TF agent: not started, bad options: 'filtr=app.Shop' is not an option; the options are "
                + "monitor=Group=factory,..., filter=spec,... and verbose[=0..4], separated by ','; "
                + "the application runs without tracing"), misspelt.agentLines());

        AgentProcess.Result badFilter = AgentProcess.run("filter=app.Shop::,monitor=Filtered=app.Recording",
                classPath, "app.Main");
        assertEquals(0, badFilter.exitCode, badFilter::describe);
        assertEquals(untraced, badFilter.stdout, badFilter::describe);
        assertEquals(1, badFilter.agentLines().size(), badFilter::describe);
        String line = badFilter.agentLines().get(0);
        assertTrue(line.startsWith("TF agent: not started, bad filter: filter 'app.Shop::'"), line);
        assertTrue(line.endsWith("; the application runs without tracing"), line);
    }

    /**
     * Tracing as a class loads adds nothing a program can see: reflection lists the fields,
     * methods and annotations the class was compiled with (commons-lang3's FieldUtilsTest counts
     * fields; a holder field once failed two of its tests), and its methods are traced.
     */
    @Test
    void aClassTracedAsItLoadsShowsReflectionOnlyWhatItWasCompiledWith() throws Exception {
        Map<String, String> sources = new HashMap<>();
        sources.put("app.Recording", RECORDING);
        sources.put("app.Shop", SHOP);
        sources.put("app.Members", "package app;\n"
                + "import java.util.*;\n"
                + "public class Members {\n"
                + "  public static void main(String[] args) {\n"
                + "    new Shop().add(\"pen\");\n"
                + "    List<String> seen = new ArrayList<>();\n"
                + "    for (java.lang.reflect.Field f : Shop.class.getDeclaredFields()) seen.add(f.toString());\n"
                + "    for (java.lang.reflect.Method m : Shop.class.getDeclaredMethods()) seen.add(m.toString());\n"
                + "    for (java.lang.reflect.Constructor<?> c : Shop.class.getDeclaredConstructors()) seen.add(c.toString());\n"
                + "    for (java.lang.annotation.Annotation a : Shop.class.getAnnotations()) seen.add(a.toString());\n"
                + "    Collections.sort(seen);\n"
                + "    System.out.println(seen);\n"
                + "    Recording.dump();\n"
                + "  }\n"
                + "}\n");
        Path classes = AgentProcess.compile(work, sources);
        AgentProcess.Result untraced = AgentProcess.run(null, List.of(classes), "app.Members");
        AgentProcess.Result traced = AgentProcess.run("filter=app.Shop,monitor=Filtered=app.Recording",
                List.of(classes), "app.Members");

        assertEquals(0, traced.exitCode, traced::describe);
        String members = untraced.stdout.split("\n")[0];
        assertEquals(members + "\n"
                + "enter Shop.<init> []\n"
                + "exit Shop.<init>\n"
                + "enter Shop.add [pen]\n"
                + "exit Shop.add = 1\n", traced.stdout, traced::describe);
    }

    @Test
    void aJdkClassAFilterNamesIsTracedAndTfsOwnClassesAreRefusedByName() throws Exception {
        Map<String, String> sources = new HashMap<>();
        sources.put("app.Recording", RECORDING);
        sources.put("app.Sorted", "package app;\n"
                + "import java.util.concurrent.ConcurrentSkipListMap;\n"
                + "import java.util.concurrent.CopyOnWriteArrayList;\n"
                + "public class Sorted {\n"
                + "  public static void main(String[] args) {\n"
                + "    ConcurrentSkipListMap<String, Integer> map = new ConcurrentSkipListMap<>();\n"
                + "    map.put(\"b\", 2);\n"
                + "    System.out.println(\"b=\" + map.get(\"b\"));\n"
                + "    CopyOnWriteArrayList<String> list = new CopyOnWriteArrayList<>();\n"
                + "    list.add(\"c\");\n"
                + "    System.out.println(\"size=\" + list.size());\n"
                + "    Recording.dump();\n"
                + "  }\n"
                + "}\n");
        Path classes = AgentProcess.compile(work, sources);
        AgentProcess.Result run = AgentProcess.run(
                "filter=java.util.concurrent.ConcurrentSkipListMap::put;java.util.concurrent.ConcurrentSkipListMap::get,"
                        + "java.util.concurrent.CopyOnWriteArrayList::size,"
                        + "org.tracingfacility.runtime.MethodMonitorRegistry::methodName,"
                        + "monitor=Filtered=app.Recording",
                List.of(classes), "app.Sorted");

        assertEquals(0, run.exitCode, run::describe);
        // CopyOnWriteArrayList was loaded before the agent (to read the agent's jar): traced by
        // retransformation, in the same guarded shape.
        assertEquals("b=2\n"
                + "size=1\n"
                + "enter ConcurrentSkipListMap.put [b, 2]\n"
                + "exit ConcurrentSkipListMap.put = null\n"
                + "enter ConcurrentSkipListMap.get [b]\n"
                + "exit ConcurrentSkipListMap.get = 2\n"
                + "enter CopyOnWriteArrayList.size []\n"
                + "exit CopyOnWriteArrayList.size = 1\n", run.stdout, run::describe);
        // The recording monitor calls methodName for every event: TF's own class, refused.
        assertEquals(List.of("TF agent: org.tracingfacility.runtime.MethodMonitorRegistry left as it was: a class of "
                + "TF itself: it runs the guard that keeps monitoring code from reaching a monitor, and would run "
                + "it inside itself"), run.agentLines(), run::describe);
    }

    @Test
    void aClassBuiltAtStageOneGetsStageTwoAsItLoads() throws Exception {
        Map<String, String> sources = new HashMap<>();
        sources.put("app.Recording", RECORDING);
        sources.put("app.Traced", "package app;\n"
                + "import java.lang.annotation.*;\n"
                + "@Retention(RetentionPolicy.RUNTIME) @org.tracingfacility.annotation.MethodMonitorGroup\n"
                + "public @interface Traced {}\n");
        sources.put("app.Counter", "package app;\n"
                + "@Traced public class Counter {\n"
                + "  private int count;\n"
                + "  @Traced public int next() { return ++count; }\n"
                + "  public static void main(String[] args) {\n"
                + "    Counter counter = new Counter();\n"
                + "    counter.next();\n"
                + "    System.out.println(\"count \" + counter.next());\n"
                + "    Recording.dump();\n"
                + "  }\n"
                + "}\n");
        Path classes = AgentProcess.compile(work, sources);
        EnhanceReport stageOne = TfCore.enhance(EnhanceRequest.builder(classes.toString()).tracegen(false)
                .classpath(List.of(AgentProcess.runtimeJar().toString())).build());
        assertTrue(stageOne.ok() && stageOne.classesEnhanced() == 1, stageOne::summary);
        List<Path> classPath = List.of(classes, AgentProcess.runtimeJar());

        AgentProcess.Result without = AgentProcess.run(null, classPath, "app.Counter");
        assertEquals("count 2\n", without.stdout, "stage 1 alone has no tracing code: " + without.describe());

        AgentProcess.Result with = AgentProcess.run("monitor=Traced=app.Recording", classPath, "app.Counter");
        assertEquals(0, with.exitCode, with::describe);
        assertEquals("count 2\nenter Counter.next []\nexit Counter.next = 1\nenter Counter.next []\nexit Counter.next = 2\n",
                with.stdout, with::describe);
        assertEquals(List.of(), with.agentLines(), with::describe);
    }

    @Test
    void aClassTheAgentCannotEnhanceIsLeftAsItWasWithOneLine() throws Exception {
        Path classes = compiledShop();
        // Stage 1 with a filter: stage 2 needs that filter again, and the agent is given another.
        EnhanceReport stageOne = TfCore.enhance(EnhanceRequest.builder(classes.toString()).tracegen(false)
                .filters(List.of("app.Shop::add")).classpath(List.of(AgentProcess.runtimeJar().toString())).build());
        assertTrue(stageOne.ok() && stageOne.classesEnhanced() == 1, stageOne::summary);

        AgentProcess.Result run = AgentProcess.run("filter=app.Shop::price,monitor=Filtered=app.Recording",
                List.of(classes, AgentProcess.runtimeJar()), "app.Main");

        assertEquals(0, run.exitCode, run::describe);
        assertEquals("added 1\nprice 6\nrefused\n", run.stdout, run::describe);
        assertEquals(List.of("TF agent: app.Shop left as it was: the class was built at stage 1 (tracegen=false) "
                + "with filters other than the agent's: give the agent the build's filters, or build it with "
                + "tracegen=true [stage-one-other-settings]"), run.agentLines(), run::describe);
    }
}
