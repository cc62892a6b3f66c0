package app;

// The workload of agent/src/test/java/org/tracingfacility/agent/WholeJdkIT.java: javac, in
// process, compiling a small program on four threads; a digest of every class it wrote.
// Arguments: the work directory, and how many timed rounds of the same compile follow (0).
import java.nio.file.*;
import java.security.MessageDigest;
import java.util.*;
import javax.tools.*;
public class Compile {
  public static void main(String[] args) throws Exception {
    Path root = Paths.get(args[0]);
    List<Thread> threads = new ArrayList<>();
    String[] results = new String[4];
    for (int t = 0; t < 4; t++) {
      int n = t;
      Thread thread = new Thread(() -> results[n] = compile(root.resolve("p" + n)));
      threads.add(thread); thread.start();
    }
    for (Thread thread : threads) thread.join();
    for (String result : results) System.out.println(result);
    // Then, if asked, the same compile again and again, each round timed: once the JIT has
    // compiled the (traced) code, a round's time is what tracing costs in steady state, the
    // figure FERRARI reports, apart from what a traced JVM pays once (enhancing, retransforming).
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 0;
    for (int r = 1; r <= rounds; r++) {
      long start = System.nanoTime();
      Thread[] again = new Thread[4];
      for (int t = 0; t < 4; t++) {
        Path dir = root.resolve("r" + r + "-" + t);
        again[t] = new Thread(() -> compile(dir));
        again[t].start();
      }
      for (Thread thread : again) thread.join();
      System.out.println("round " + r + " " + (System.nanoTime() - start) / 1_000_000);
    }
    Map<String, Integer> counts = new HashMap<>();
    for (int i = 0; i < 50; i++) counts.put("k" + i, i);
    System.out.println("counted " + counts.size());
  }
  static String compile(Path dir) {
    try {
      Path src = dir.resolve("src/demo/Shapes.java");
      Files.createDirectories(src.getParent());
      Files.writeString(src, "package demo;\nimport java.util.*;\n"
          + "public class Shapes { sealed interface S permits C, R {}\n"
          + "  record C(double r) implements S {} record R(double w, double h) implements S {}\n"
          + "  static double area(S s) { if (s instanceof C c) return Math.PI * c.r() * c.r();\n"
          + "    R r = (R) s; return r.w() * r.h(); }\n"
          + "  public static void main(String[] a) { List<S> l = List.of(new C(1), new R(2, 3));\n"
          + "    l.stream().mapToDouble(Shapes::area).forEach(System.out::println); } }\n");
      Path out = dir.resolve("classes");
      Files.createDirectories(out);
      JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
      int status = javac.run(null, null, null, "-d", out.toString(), src.toString());
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      List<Path> written = new ArrayList<>();
      try (var files = Files.walk(out)) { files.filter(Files::isRegularFile).sorted().forEach(written::add); }
      for (Path file : written) { digest.update(out.relativize(file).toString().getBytes()); digest.update(Files.readAllBytes(file)); }
      return "javac " + status + ", " + written.size() + " classes, " + HexFormat.of().formatHex(digest.digest());
    } catch (Exception e) { return "failed: " + e; }
  }
}
