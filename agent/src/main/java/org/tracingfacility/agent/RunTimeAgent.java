package org.tracingfacility.agent;

import java.io.IOException;
import java.lang.instrument.Instrumentation;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * The run-time half of the agent: {@code java -jar tf-agent.jar <pid> start|stop|status|report}
 * ({@link AttachClient}) attaches to a running JVM, whose {@code agentmain} lands here with the
 * path of the request file; the reply goes beside it ({@link Reply}). Whatever happens, the
 * JVM runs on: nothing escapes but a failure to write the reply, which the client reports.
 */
final class RunTimeAgent {
    private static final String RUNTIME_CLASS = "org.tracingfacility.runtime.support.EnhancedCodeSupport";
    private static RunTimeTracing tracing;

    private RunTimeAgent() {
    }

    static void agentmain(String requestFile, Instrumentation instrumentation) {
        if (requestFile == null || requestFile.isBlank()) {
            AgentLog.line("attached without a request; use java -jar tf-agent.jar <pid> start|stop|status|report");
            return;
        }
        Path request = Paths.get(requestFile);
        Reply reply;
        try {
            AttachRequest parsed = AttachRequest.parse(Files.readAllLines(request, StandardCharsets.UTF_8));
            reply = tracing(instrumentation).handle(parsed);
        } catch (IllegalArgumentException e) {
            reply = Reply.failed("TF: " + e.getMessage());
        } catch (Throwable e) { // the application must run on whatever happened here
            reply = Reply.failed("TF: the agent failed; the JVM runs on as it was: " + e);
        }
        try {
            reply.writeFor(request);
        } catch (IOException e) {
            AgentLog.line("could not write the reply to " + request + ": " + e);
        }
    }

    static void main(String[] arguments) {
        System.exit(AttachClient.run(arguments, System.out, System.err));
    }

    /**
     * The tracing state of this JVM, made on the first attach. tf-runtime must be where the
     * traced classes find it: the application's own copy if its class path has one (its
     * classes built with TF registered there), else the agent's, put on the boot class path
     * (unless {@code -javaagent} did that already).
     */
    private static synchronized RunTimeTracing tracing(Instrumentation instrumentation) throws Exception {
        if (tracing == null) {
            BootstrapRuntime runtime = null;
            if (!visible(ClassLoader.getSystemClassLoader())) {
                runtime = BootstrapRuntime.install(instrumentation);
                runtime.openInternals();
                runtime.prepareGuard();
            } else {
                BootstrapRuntime.openInternals(instrumentation,
                        Class.forName(RUNTIME_CLASS, false, ClassLoader.getSystemClassLoader()).getModule());
                BootstrapRuntime.initializeGuard(ClassLoader.getSystemClassLoader());
            }
            tracing = new RunTimeTracing(instrumentation, new CoreShapeEnhancer(), runtime);
        }
        return tracing;
    }

    private static boolean visible(ClassLoader loader) {
        try {
            Class.forName(RUNTIME_CLASS, false, loader);
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
