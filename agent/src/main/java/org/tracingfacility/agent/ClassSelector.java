package org.tracingfacility.agent;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Decides in Java, cheaply, which loading classes are worth a call into the native core: those a
 * filter could select (by class name; or, for {@code ::method} and {@code @Annotation} targets,
 * by the name appearing in the class file), and those carrying TF's own marks (a TF group's
 * descriptor, {@code @TFEnhanced} of a stage-1 build, {@code @InfoMethod}). Every other class
 * costs a few string comparisons. The core decides exactly; this only must not miss a class
 * the core would change.
 *
 * <p>The JDK's classes (boot and platform loaders) are selected by a target naming their class
 * or package ({@code java.util.concurrent.**}), and, as they load, by {@code ::method} and
 * {@code @Annotation} targets as JEP 520's filters are; {@code **} means the application's
 * classes only. (A JDK class loaded before the agent started is reached by its name alone:
 * its bytes are not at hand before it is retransformed.)
 *
 * <p>A {@code Type+} target selects {@code Type} by name and, in the JDK or not, every class
 * with {@code Type} among its supertypes ({@link Supertypes}): the callers ask
 * {@link #needsSupertypes()} and hand them to {@link #namesASupertype}.
 */
final class ClassSelector {
    /** In every class TF enhanced or must look at: its annotations' package. */
    private static final byte[] TF_ANNOTATION_PACKAGE =
            "Lorg/tracingfacility/annotation/".getBytes(StandardCharsets.UTF_8);

    private final List<NamePattern> names = new ArrayList<>();
    /** Texts whose presence in a class file means a {@code ::method} or {@code @A} target may match. */
    private final List<byte[]> contentMarks = new ArrayList<>();
    /** The types of {@code Type+} targets. */
    private final List<String> subtypesOf = new ArrayList<>();

    ClassSelector(List<String> filters) {
        for (String filter : filters) {
            int equals = filter.indexOf('=');
            String body = equals >= 0 ? filter.substring(equals + 1) : filter;
            for (String target : body.split(";")) {
                addTarget(target.trim());
            }
        }
    }

    private void addTarget(String target) {
        if (target.isEmpty()) {
            return;
        }
        if (target.startsWith("@")) {
            String internal = target.substring(1).replace('.', '/');
            contentMarks.add(("L" + internal + ";").getBytes(StandardCharsets.UTF_8));
        } else if (target.startsWith("::")) {
            contentMarks.add(target.substring(2).getBytes(StandardCharsets.UTF_8));
        } else {
            int methodPart = target.indexOf("::");
            String pattern = methodPart >= 0 ? target.substring(0, methodPart) : target;
            if (pattern.endsWith("+")) {
                pattern = pattern.substring(0, pattern.length() - 1);
                subtypesOf.add(pattern);
            }
            names.add(NamePattern.of(pattern));
        }
    }

    /**
     * Whether a class of the application may be changed by the core.
     *
     * @param binaryName {@code com.example.Foo$Bar}
     * @param groupDescriptors {@code Lcom/example/IO;} for each TF group its loader lists
     */
    boolean worthACall(String binaryName, byte[] classFile, List<byte[]> groupDescriptors) {
        if (namesClass(binaryName) || contains(classFile, TF_ANNOTATION_PACKAGE) || carriesAMark(classFile)) {
            return true;
        }
        for (byte[] group : groupDescriptors) {
            if (contains(classFile, group)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether a filter's target could select this class of the application: by its name, or by a
     * {@code ::method} or {@code @Annotation} text in its bytes (TF's own marks not counted).
     */
    boolean selectsByFilter(String binaryName, byte[] classFile) {
        return namesClass(binaryName) || carriesAMark(classFile);
    }

    /** Whether a target's class part matches this class (its content not looked at). */
    boolean namesClass(String binaryName) {
        for (NamePattern pattern : names) {
            if (pattern.matches(binaryName)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether a JDK class loading now may be changed by the core: a target names it or its
     * package, or a {@code ::method} or {@code @Annotation} target's text is in its class file.
     */
    boolean selectsJdkClass(String binaryName, byte[] classFile) {
        return selectsJdkClass(binaryName) || carriesAMark(classFile);
    }

    /** Whether a {@code ::method} or {@code @Annotation} target's text is in the class file. */
    private boolean carriesAMark(byte[] classFile) {
        for (byte[] mark : contentMarks) {
            if (contains(classFile, mark)) {
                return true;
            }
        }
        return false;
    }

    /** Whether a target names this JDK class or its package ({@code **} does not). */
    boolean selectsJdkClass(String binaryName) {
        for (NamePattern pattern : names) {
            if (!pattern.isEveryClass() && pattern.matches(binaryName)) {
                return true;
            }
        }
        return false;
    }

    /** The packages of the JDK's modules' classes, for {@link #mayReachJdkClasses}. */
    private static final String[] JDK_PACKAGE_ROOTS = {
        "java.", "javax.", "jdk.", "sun.", "com.sun.", "org.ietf.", "org.w3c.", "org.xml."
    };

    /**
     * Whether a target may select a JDK class: a {@code ::method}, {@code @Annotation} or {@code Type+} target,
     * or a class part in (or above) a JDK package. Only then must everything the agent runs be
     * loaded before its transformer, since a class loaded inside a transformation goes untraced.
     */
    boolean mayReachJdkClasses() {
        if (!contentMarks.isEmpty() || !subtypesOf.isEmpty()) {
            return true;
        }
        for (NamePattern pattern : names) {
            if (pattern.isEveryClass()) {
                continue; // ** is the application's classes only
            }
            for (String root : JDK_PACKAGE_ROOTS) {
                if (pattern.text.startsWith(root) || (pattern.packageTree && root.startsWith(pattern.text + "."))) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether a {@code Type+} target needs the supertypes of the classes looked at. */
    boolean needsSupertypes() {
        return !subtypesOf.isEmpty();
    }

    /** Whether a {@code Type+} target's type is among {@code supertypes} (binary names). */
    boolean namesASupertype(List<String> supertypes) {
        for (String type : subtypesOf) {
            if (supertypes.contains(type)) {
                return true;
            }
        }
        return false;
    }

    /** Naive search: class files are small and most marks never match their first byte run. */
    static boolean contains(byte[] haystack, byte[] needle) {
        int last = haystack.length - needle.length;
        byte first = needle.length == 0 ? 0 : needle[0];
        outer:
        for (int i = 0; i <= last; i++) {
            if (haystack[i] != first) {
                continue;
            }
            for (int j = 1; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    /** A filter's class part: {@code Name}, {@code pkg.*}, {@code pkg.**} or {@code **}. */
    private static final class NamePattern {
        private final String text;
        private final boolean packageOnly;
        private final boolean packageTree;

        private NamePattern(String text, boolean packageOnly, boolean packageTree) {
            this.text = text;
            this.packageOnly = packageOnly;
            this.packageTree = packageTree;
        }

        static NamePattern of(String pattern) {
            if (pattern.equals("**")) {
                return new NamePattern("", false, true);
            }
            if (pattern.endsWith(".**")) {
                return new NamePattern(pattern.substring(0, pattern.length() - 3), false, true);
            }
            if (pattern.endsWith(".*")) {
                return new NamePattern(pattern.substring(0, pattern.length() - 2), true, false);
            }
            return new NamePattern(pattern, false, false);
        }

        boolean isEveryClass() {
            return packageTree && text.isEmpty();
        }

        boolean matches(String binaryName) {
            if (isEveryClass()) {
                return true;
            }
            int dot = binaryName.lastIndexOf('.');
            String pkg = dot < 0 ? "" : binaryName.substring(0, dot);
            if (packageTree) {
                return pkg.equals(text) || pkg.startsWith(text + ".");
            }
            if (packageOnly) {
                return pkg.equals(text);
            }
            return binaryName.equals(text);
        }
    }
}
