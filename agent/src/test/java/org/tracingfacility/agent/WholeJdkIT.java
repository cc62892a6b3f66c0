package org.tracingfacility.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
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

    @TempDir
    Path work;

    @Test
    void theWholeJdkTracedWithTheApplicationGivesTheSameResultAndProfilesItsCalls() throws Exception {
        Path classes = AgentProcess.compileRelease(work, "17", Map.of("app.Compile", COMPILE));
        AgentProcess.Result untraced = AgentProcess.run(null, List.of(), List.of(classes), "app.Compile",
                work.resolve("untraced").toString());
        assertEquals(0, untraced.exitCode, untraced::describe);
        assertTrue(untraced.stdout.startsWith("javac 0, 4 classes, "), untraced::describe);

        Path profile = work.resolve("profile.folded");
        AgentProcess.Result traced = AgentProcess.run(
                "filter=java.**;javax.**;jdk.**;sun.**;com.sun.**;app.**,monitor=Filtered=profile",
                List.of("-Dtf.profile.output=" + profile), List.of(classes), "app.Compile",
                work.resolve("traced").toString());
        assertEquals(0, traced.exitCode, traced::describe);
        assertEquals(untraced.stdout, traced.stdout, traced::describe);

        assertTrue(Files.isRegularFile(profile), traced::describe);
        String folded = Files.readString(profile);
        // The application's put, into the JDK's HashMap, as far as its resize.
        assertTrue(folded.contains("app.Compile.main;java.util.HashMap.put;java.util.HashMap.putVal;"
                + "java.util.HashMap.resize "), () -> excerpt(folded, "HashMap.resize"));
        // javac's own work under the application's thread.
        assertTrue(folded.contains("app.Compile.compile;com.sun.tools.javac.api.JavacTool.run;"),
                () -> excerpt(folded, "JavacTool"));
    }

    private static String excerpt(String folded, String around) {
        StringBuilder lines = new StringBuilder();
        for (String line : folded.split("\n")) {
            if (line.contains(around) && lines.length() < 4000) {
                lines.append(line).append('\n');
            }
        }
        return lines.length() == 0 ? "no line with " + around + " among " + folded.split("\n").length : lines.toString();
    }
}
