package org.tracingfacility.it;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/** What a user reads in a {@code --console=plain} Gradle log, picked out for assertions. */
final class GradleOutput {
    private static final Pattern PROBLEMS =
            Pattern.compile("\\d+ problems? (was|were) found|cache entry (stored|reused) with");

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

    /**
     * Gradle's reports of configuration cache problems ("1 problem was found storing the
     * configuration cache", "entry stored with 2 problems") and of deprecations. (Not the word
     * "problem" alone: a test worker's SLF4J warning names the jar {@code gradle-problems-api}.)
     */
    private static boolean mentionsProblems(ProcessRunner.Result result) {
        return PROBLEMS.matcher(result.output).find() || result.output.contains("Deprecated Gradle features");
    }
}
