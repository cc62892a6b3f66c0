package org.tracingfacility.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * FERRARI's case: the whole JDK traced at once, with the application, under the calling-context
 * profile, on a workload nobody here wrote: javac (the JDK's own compiler, in process) compiling
 * a small program, on four threads at once. The compiler's output must be the same bytes as
 * untraced, and the profile must hold the application's calls into the JDK.
 * {@code bench/agent/whole-jdk/} times it against untraced and JFR; this is the fast default.
 */
class WholeJdkIT {
    /** Compiles four copies of a small program on four threads; prints a digest of every class written. */
    private static final String COMPILE = "package app;\n"
            + "import java.nio.file.*;\n"
            + "import java.security.MessageDigest;\n"
            + "import java.util.*;\n"
            + "import javax.tools.*;\n"
            + "public class Compile {\n"
            + "  public static void main(String[] args) throws Exception {\n"
            + "    Path root = Paths.get(args[0]);\n"
            + "    List<Thread> threads = new ArrayList<>();\n"
            + "    String[] results = new String[4];\n"
            + "    for (int t = 0; t < 4; t++) {\n"
            + "      int n = t;\n"
            + "      Thread thread = new Thread(() -> results[n] = compile(root.resolve(\"p\" + n)));\n"
            + "      threads.add(thread); thread.start();\n"
            + "    }\n"
            + "    for (Thread thread : threads) thread.join();\n"
            + "    for (String result : results) System.out.println(result);\n"
            + "    Map<String, Integer> counts = new HashMap<>();\n"
            + "    for (int i = 0; i < 50; i++) counts.put(\"k\" + i, i);\n"
            + "    System.out.println(\"counted \" + counts.size());\n"
            + "    if (Boolean.getBoolean(\"profile.check\")) ProfileCheck.print();\n"
            + "  }\n"
            + "  static String compile(Path dir) {\n"
            + "    try {\n"
            + "      Path src = dir.resolve(\"src/demo/Shapes.java\");\n"
            + "      Files.createDirectories(src.getParent());\n"
            + "      Files.writeString(src, \"package demo;\\nimport java.util.*;\\n\"\n"
            + "          + \"public class Shapes { sealed interface S permits C, R {}\\n\"\n"
            + "          + \"  record C(double r) implements S {} record R(double w, double h) implements S {}\\n\"\n"
            + "          + \"  static double area(S s) { if (s instanceof C c) return Math.PI * c.r() * c.r();\\n\"\n"
            + "          + \"    R r = (R) s; return r.w() * r.h(); }\\n\"\n"
            + "          + \"  public static void main(String[] a) { List<S> l = List.of(new C(1), new R(2, 3));\\n\"\n"
            + "          + \"    l.stream().mapToDouble(Shapes::area).forEach(System.out::println); } }\\n\");\n"
            + "      Path out = dir.resolve(\"classes\");\n"
            + "      Files.createDirectories(out);\n"
            + "      JavaCompiler javac = ToolProvider.getSystemJavaCompiler();\n"
            + "      int status = javac.run(null, null, null, \"-d\", out.toString(), src.toString());\n"
            + "      MessageDigest digest = MessageDigest.getInstance(\"SHA-256\");\n"
            + "      List<Path> written = new ArrayList<>();\n"
            + "      try (var files = Files.walk(out)) { files.filter(Files::isRegularFile).sorted().forEach(written::add); }\n"
            + "      for (Path file : written) { digest.update(out.relativize(file).toString().getBytes()); digest.update(Files.readAllBytes(file)); }\n"
            + "      return \"javac \" + status + \", \" + written.size() + \" classes, \" + HexFormat.of().formatHex(digest.digest());\n"
            + "    } catch (Exception e) { return \"failed: \" + e; }\n"
            + "  }\n"
            + "}\n";

    /**
     * Reads the profile in process, as the MXBean's {@code dumpProfile} would (a whole-JDK tree
     * of javac is hundreds of MB as folded stacks), prints the paths asserted, and clears it so
     * that nothing is written at exit.
     */
    private static final String PROFILE_CHECK = "package app;\n"
            + "import org.tracingfacility.annotation.Filtered;\n"
            + "import org.tracingfacility.runtime.MethodMonitorRegistry;\n"
            + "import org.tracingfacility.runtime.profile.*;\n"
            + "final class ProfileCheck {\n"
            + "  static void print() {\n"
            + "    ProfileFactory factory = (ProfileFactory) MethodMonitorRegistry.registeredFactory(Filtered.class);\n"
            + "    CallTree root = factory.profile();\n"
            + "    System.out.println(\"main > HashMap.put > putVal > resize: \" + calls(root, \"app.Compile.main\",\n"
            + "        \"java.util.HashMap.put\", \"java.util.HashMap.putVal\", \"java.util.HashMap.resize\"));\n"
            + "    long javac = 0;\n"
            + "    for (CallTree top : root.children()) {\n"
            + "      CallTree compile = find(top, \"app.Compile.compile\", 3);\n"
            + "      if (compile != null) for (CallTree c : compile.children()) if (c.name().startsWith(\"com.sun.tools.javac.\")) javac += c.calls();\n"
            + "    }\n"
            + "    System.out.println(\"compile > javac: \" + (javac > 0 ? \"yes\" : \"no\"));\n"
            + "    factory.clear();\n"
            + "  }\n"
            + "  static long calls(CallTree tree, String... path) {\n"
            + "    for (String name : path) { tree = tree == null ? null : tree.child(name); }\n"
            + "    return tree == null ? 0 : tree.calls();\n"
            + "  }\n"
            + "  static CallTree find(CallTree tree, String name, int depth) {\n"
            + "    if (tree.name().equals(name)) return tree;\n"
            + "    if (depth == 0) return null;\n"
            + "    for (CallTree c : tree.children()) { CallTree f = find(c, name, depth - 1); if (f != null) return f; }\n"
            + "    return null;\n"
            + "  }\n"
            + "}\n";

    @TempDir
    Path work;

    @Test
    void theWholeJdkTracedWithTheApplicationGivesTheSameResultAndProfilesItsCalls() throws Exception {
        Path classes = AgentProcess.compileRelease(work, "17", Map.of("app.Compile", COMPILE, "app.ProfileCheck",
                PROFILE_CHECK));
        AgentProcess.Result untraced = AgentProcess.run(null, List.of(), List.of(classes), "app.Compile",
                work.resolve("untraced").toString());
        assertEquals(0, untraced.exitCode, untraced::describe);
        assertTrue(untraced.stdout.startsWith("javac 0, 4 classes, "), untraced::describe);

        AgentProcess.Result traced = AgentProcess.run(
                "filter=java.**;javax.**;jdk.**;sun.**;com.sun.**;app.**,monitor=Filtered=profile",
                // What runs after the check (the JVM's shutdown) is profiled too: written beside.
                List.of("-Dprofile.check=true", "-Dtf.profile.output=" + work.resolve("after-check.folded")),
                List.of(classes), "app.Compile", work.resolve("traced").toString());
        assertEquals(0, traced.exitCode, traced::describe);
        // The same compiler output, byte for byte, on every thread; then what the profile holds.
        assertEquals(untraced.stdout
                + "main > HashMap.put > putVal > resize: 4\n"
                + "compile > javac: yes\n", traced.stdout, traced::describe);
        // Nothing left as it was but what the JVM itself cannot take.
        for (String line : traced.agentLines()) {
            assertTrue(line.startsWith("TF agent: java.lang.Object left as it was")
                    || line.contains("attempted to change the schema"), () -> line + "\n" + traced.describe());
        }
    }
}
