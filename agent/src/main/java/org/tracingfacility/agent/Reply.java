package org.tracingfacility.agent;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The agent's answer to one attach: the text the client prints and its exit status. Travels
 * in a file beside the request ({@code <request>.reply}), written whole and then renamed, so
 * that the client reads either nothing or all of it: line 1 is the exit status, the rest the text.
 */
final class Reply {
    /** The exit status of a request the agent carried out. */
    static final int OK = 0;
    /** The exit status of a request the agent refused or failed in; the JVM runs on unchanged. */
    static final int FAILED = 1;
    /**
     * The exit status of a {@code start} that traced no loaded class: the start is in force, and
     * classes its filters select are traced as they load, but nothing is traced now, most often
     * because a filter names nothing that exists.
     * (2 and 3 are the client's: a usage error, no attach.)
     */
    static final int NOTHING_TRACED = 4;

    final int status;
    final String text;

    Reply(int status, String text) {
        this.status = status;
        this.text = text.endsWith("\n") ? text : text + "\n";
    }

    static Reply ok(String text) {
        return new Reply(OK, text);
    }

    static Reply failed(String text) {
        return new Reply(FAILED, text);
    }

    /** Where the reply to {@code request} goes. */
    static Path fileFor(Path request) {
        return request.resolveSibling(request.getFileName() + ".reply");
    }

    void writeFor(Path request) throws IOException {
        Path target = fileFor(request);
        Path partial = request.resolveSibling(request.getFileName() + ".reply.partial");
        Files.write(partial, (status + "\n" + text).getBytes(StandardCharsets.UTF_8));
        Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** The reply the agent wrote for {@code request}. */
    static Reply readFor(Path request) throws IOException {
        String all = new String(Files.readAllBytes(fileFor(request)), StandardCharsets.UTF_8);
        int newline = all.indexOf('\n');
        if (newline < 0) {
            throw new IOException("the agent's reply " + fileFor(request) + " has no status line");
        }
        try {
            return new Reply(Integer.parseInt(all.substring(0, newline).trim()), all.substring(newline + 1));
        } catch (NumberFormatException e) {
            throw new IOException("the agent's reply " + fileFor(request) + " has no status line");
        }
    }
}
