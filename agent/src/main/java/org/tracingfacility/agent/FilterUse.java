package org.tracingfacility.agent;

import java.util.ArrayList;
import java.util.List;

/**
 * Which of the agent's filters have selected something: the load-time agent says at exit, one
 * line per filter, which selected no class that loaded (a typo such as {@code app.Shopp} would
 * otherwise trace nothing, unsaid). A filter counts as used when a class it names, by its name or
 * by a {@code ::method} or {@code @Annotation} text in its bytes, was enhanced, or was left as it
 * was with a line saying why (a refused class was selected: its line says the rest). The core
 * does not say which filter chose which method, so a filter naming a class that another
 * filter's method had traced counts as used too.
 */
final class FilterUse {
    private final List<String> filters;
    private final List<ClassSelector> selectors = new ArrayList<>();
    /**
     * True once the filter at that index selected a class; guarded by this object's lock
     * (classes load on many threads). Not an {@code AtomicIntegerArray}: its first use builds a
     * {@code VarHandle}, milliseconds of the agent's start-up.
     */
    private final boolean[] used;

    FilterUse(List<String> filters) {
        this.filters = List.copyOf(filters);
        for (String filter : this.filters) {
            selectors.add(new ClassSelector(List.of(filter)));
        }
        this.used = new boolean[this.filters.size()];
    }

    /**
     * {@code className} was enhanced, or left as it was with a line saying why; {@code classFile}
     * its bytes as loaded, or null where they are not at hand (then only its name is matched);
     * {@code jdk}: a class of the boot or platform loader; {@code supertypes}: those known of it
     * (for {@code Type+} filters; empty when none needs them).
     */
    synchronized void selected(String className, byte[] classFile, boolean jdk, List<String> supertypes) {
        for (int i = 0; i < selectors.size(); i++) {
            if (used[i]) {
                continue;
            }
            ClassSelector one = selectors.get(i);
            boolean named = classFile == null
                    ? (jdk ? one.selectsJdkClass(className) : one.namesClass(className))
                    : (jdk ? one.selectsJdkClass(className, classFile) : one.selectsByFilter(className, classFile));
            if (named || one.namesASupertype(supertypes)) {
                used[i] = true;
            }
        }
    }

    /** The filters no class answered to, in the order given. */
    synchronized List<String> unused() {
        List<String> unused = new ArrayList<>();
        for (int i = 0; i < filters.size(); i++) {
            if (!used[i]) {
                unused.add(filters.get(i));
            }
        }
        return unused;
    }

    /** The line the load-time agent prints at exit for a filter that selected nothing. */
    static String selectedNothingAtExit(String filter) {
        return "filter '" + filter + "' selected no method of any class loaded before exit: nothing was traced for it"
                + " (check the class, method or annotation it names)";
    }
}
