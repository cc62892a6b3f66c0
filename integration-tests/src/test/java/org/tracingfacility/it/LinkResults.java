package org.tracingfacility.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What {@code ClassLinker} wrote: per class, {@code OK} or the error that linking threw. */
final class LinkResults {
    /** The type-checking verifier's "Location:" line: {@code owner.name(descriptor) @bci: opcode}. */
    private static final Pattern SPLIT_VERIFIER_LOCATION = Pattern.compile("Location:\\s*\\n\\s*(\\S+\\(\\S*\\)\\S*) @(\\d+): (\\S+)");
    /** The type-inferring verifier's "(class: c, method: m signature: d)". */
    private static final Pattern OLD_VERIFIER_LOCATION = Pattern.compile("method: (\\S+) signature: ([^)]*\\)[^)\\s]*)");
    private static final Pattern REASON = Pattern.compile("Reason:\\s*\\n\\s*([^\\n]+)");

    /** Class name to {@code null} when it linked, else the throwable's class and message. */
    final Map<String, String> byClass;

    private LinkResults(Map<String, String> byClass) {
        this.byClass = byClass;
    }

    static LinkResults read(Path file) throws IOException {
        Map<String, String> byClass = new LinkedHashMap<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            String[] f = line.split("\t", 3);
            byClass.put(f[0], f[1].equals("OK") ? null : f[1] + ": " + unescape(f.length > 2 ? f[2] : ""));
        }
        return new LinkResults(byClass);
    }

    boolean linked(String className) {
        return byClass.containsKey(className) && byClass.get(className) == null;
    }

    /** The method a verifier error names, {@code ?} when it names none. */
    static String method(String error) {
        Matcher split = SPLIT_VERIFIER_LOCATION.matcher(error);
        if (split.find()) {
            return split.group(1) + " @" + split.group(2) + " " + split.group(3);
        }
        Matcher old = OLD_VERIFIER_LOCATION.matcher(error);
        return old.find() ? old.group(1) + old.group(2) : "?";
    }

    /** The first line of an error, with the verifier's reason when it gives one. */
    static String headline(String error) {
        String first = error.split("\n", 2)[0];
        Matcher reason = REASON.matcher(error);
        return reason.find() ? first + " — " + reason.group(1).trim() : first;
    }

    private static String unescape(String s) {
        StringBuilder out = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length()) {
                char next = s.charAt(++i);
                out.append(next == 'n' ? '\n' : next == 't' ? '\t' : next);
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
