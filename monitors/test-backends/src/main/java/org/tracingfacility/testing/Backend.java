package org.tracingfacility.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real server the test starts on a loopback port and always stops: when closed, and by a
 * shutdown hook should the test JVM end first. Its output goes to a log file under target/.
 */
public final class Backend implements AutoCloseable {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final String name;
    private final String baseUrl;
    private final Process process;
    private final Path log;
    private final Thread killer;

    private Backend(String name, String baseUrl, Process process, Path log) {
        this.name = name;
        this.baseUrl = baseUrl;
        this.process = process;
        this.log = log;
        this.killer = new Thread(process::destroyForcibly, "stop " + name);
        Runtime.getRuntime().addShutdownHook(killer);
    }

    /**
     * Starts {@code command}, which will serve HTTP at {@code baseUrl}.
     */
    public static Backend start(String name, String baseUrl, List<String> command, Path log) throws IOException {
        Files.createDirectories(log.getParent());
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        return new Backend(name, baseUrl, process, log);
    }

    /** A free TCP port on the loopback interface (free a moment ago). */
    public static int freeLoopbackPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** The executable of a Debian package, or a failure saying how to install it. */
    public static String executable(String command, String debianPackage) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
            Path candidate = Paths.get(dir, command);
            if (Files.isExecutable(candidate)) {
                return candidate.toString();
            }
        }
        throw new AssertionError(command + " is not installed: scripts/setup.sh installs Debian's "
                + debianPackage + " package");
    }

    /** The URL of a path of this server, e.g. {@code /api/v1/query}. */
    public String url(String path) {
        return baseUrl + path;
    }

    /** Waits until {@code path} answers 200, or fails with the end of the log. */
    public void awaitReady(String path, Duration timeout) throws Exception {
        String url = url(path);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new AssertionError(name + " exited with " + process.exitValue() + ":\n" + logTail());
            }
            try {
                if (get(url).statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(200);
        }
        throw new AssertionError(name + " not ready at " + url + " after " + timeout + ":\n" + logTail());
    }

    /** An HTTP GET of {@code url}, its body as text. */
    public static HttpResponse<String> get(String url) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build();
        return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    }

    /** The last lines the server wrote, for a failure's message. */
    public String logTail() {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(15, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
        try {
            Runtime.getRuntime().removeShutdownHook(killer);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs anyway
        }
    }
}
