package org.tracingfacility.it;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/** What a user reads in a {@code --console=plain} Gradle log, picked out for assertions. */
final class GradleOutput {
    private GradleOutput() {}

    /**
     * The task lines of the log, without their {@code > Task } prefix: {@code :compileJava},
     * {@code :compileJava UP-TO-DATE}, {@code :compileJava FROM-CACHE}, …
     */
    static Set<String> tasks(ProcessRunner.Result result) {
        return linesStartingWith(result, "> Task ").stream()
                .map(line -> line.substring("> Task ".length())).collect(Collectors.toSet());
    }

    /** The trimmed lines starting with {@code prefix}, in order. */
    static List<String> linesStartingWith(ProcessRunner.Result result, String prefix) {
        return Arrays.stream(result.output.split("\\R")).map(String::trim)
                .filter(line -> line.startsWith(prefix)).collect(Collectors.toList());
    }

    /**
     * What a task printed: the lines after its {@code > Task <path>} header, up to the next
     * header or the build's verdict.
     */
    static List<String> printedBy(ProcessRunner.Result result, String taskPath) {
        List<String> printed = new ArrayList<>();
        boolean inTask = false;
        for (String line : result.output.split("\\R")) {
            if (line.startsWith("> Task ") || line.startsWith("BUILD ")) {
                inTask = line.equals("> Task " + taskPath);
            } else if (inTask && !line.isBlank()) {
                printed.add(line);
            }
        }
        return printed;
    }

    /** Whether the configuration cache was stored (first run) with no problem reported. */
    static boolean configurationCacheStored(ProcessRunner.Result result) {
        return result.output.contains("Configuration cache entry stored.") && !mentionsProblems(result);
    }

    /** Whether the run reused the stored configuration cache, with no problem reported. */
    static boolean configurationCacheReused(ProcessRunner.Result result) {
        return result.output.contains("Reusing configuration cache.") && !mentionsProblems(result);
    }

    private static boolean mentionsProblems(ProcessRunner.Result result) {
        return result.output.contains("problem") || result.output.contains("Deprecated Gradle features");
    }
}
