package org.tracingfacility.agent;

import com.sun.tools.attach.AgentInitializationException;
import com.sun.tools.attach.AgentLoadException;
import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;

/**
 * {@code java -jar tf-agent.jar <pid> start|stop|status|report [options]}: attaches to a running
 * JVM and has the agent in it carry out the command ({@link RunTimeAgent}).
 *
 * <p>The request goes in a file (the command, then one option per line) whose path is the
 * agent's argument, so filters are never cut by the attach mechanism's argument limits nor
 * split by a separator; the agent answers in the file beside it ({@link Reply}), which this
 * client prints, exiting with its status: 0 done, 1 refused or failed in the target (which
 * runs on unchanged), 2 a usage error found before attaching, 3 no attach, 4 a start that traced
 * no loaded class (in force for classes loading later; each filter that selected nothing named).
 */
final class AttachClient {
    static final int USAGE = 2;
    static final int NO_ATTACH = 3;

    private AttachClient() {
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length < 2) {
            err.println("usage: java -jar tf-agent.jar <pid> start|stop|status|report [filter=<filter>] "
                    + "[monitor=Group=factory[,...]] [verbose]\n"
                    + "       java [JVM options] -jar tf-agent.jar archive [file]   (a start-up archive for this JDK)");
            return USAGE;
        }
        AttachRequest request;
        try {
            request = AttachRequest.parse(Arrays.asList(args).subList(1, args.length));
        } catch (IllegalArgumentException e) {
            err.println("TF: " + e.getMessage());
            return USAGE;
        }
        Path requestFile = null;
        try {
            requestFile = Files.createTempFile("tf-attach-", ".request");
            Files.write(requestFile, request.lines(), StandardCharsets.UTF_8);
            VirtualMachine vm = VirtualMachine.attach(args[0]);
            try {
                vm.loadAgent(ownJar().toString(), requestFile.toString());
            } finally {
                vm.detach();
            }
            Reply reply = Reply.readFor(requestFile);
            (reply.status == Reply.OK ? out : err).print(reply.text);
            return reply.status;
        } catch (AttachNotSupportedException | IOException e) {
            err.println("TF: cannot attach to JVM " + args[0] + ": " + e.getMessage());
            return NO_ATTACH;
        } catch (AgentLoadException | AgentInitializationException e) {
            err.println("TF: the agent did not start in JVM " + args[0] + ": " + e.getMessage());
            return NO_ATTACH;
        } finally {
            if (requestFile != null) {
                deleteQuietly(requestFile);
                deleteQuietly(Reply.fileFor(requestFile));
            }
        }
    }

    /** The jar this class is in: the agent the target JVM loads. */
    private static Path ownJar() throws IOException {
        try {
            return Paths.get(AttachClient.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException | RuntimeException e) {
            throw new IOException("cannot locate tf-agent.jar: " + e.getMessage(), e);
        }
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // A temporary file left behind is harmless.
        }
    }
}
