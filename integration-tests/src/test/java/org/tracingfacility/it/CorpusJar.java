package org.tracingfacility.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One row of {@code integration-tests/corpus/jars.tsv}: a jar from Maven Central (or a module
 * of the JDK 25 image), the compiler that wrote it, what it exercises, and the Java feature
 * version its classes need to link.
 */
final class CorpusJar {
    /** Coordinates of this form name a module of the JDK 25 image, extracted with jimage. */
    private static final String JDK_MODULE = "jdk:";

    final String name;
    final String coordinates;
    final String compiler;
    final String exercises;
    final int linkJava;

    private CorpusJar(String name, String coordinates, String compiler, String exercises, int linkJava) {
        this.name = name;
        this.coordinates = coordinates;
        this.compiler = compiler;
        this.exercises = exercises;
        this.linkJava = linkJava;
    }

    boolean isJdkModule() {
        return coordinates.startsWith(JDK_MODULE);
    }

    /** For a JDK row: the module's name. */
    String jdkModule() {
        return coordinates.substring(JDK_MODULE.length());
    }

    /** {@code groupId:artifactId:version[:classifier]} split in four (the classifier may be empty). */
    String[] gav() {
        String[] parts = coordinates.split(":");
        if (parts.length < 3 || parts.length > 4) {
            throw new IllegalStateException(name + ": coordinates '" + coordinates
                    + "' are neither groupId:artifactId:version[:classifier] nor jdk:MODULE");
        }
        return new String[] {parts[0], parts[1], parts[2], parts.length == 4 ? parts[3] : ""};
    }

    /** The file name Maven gives the jar itself among its dependencies. */
    String jarFileName() {
        String[] gav = gav();
        return gav[1] + "-" + gav[2] + (gav[3].isEmpty() ? "" : "-" + gav[3]) + ".jar";
    }

    /**
     * Reads the table: tab-separated name, coordinates, compiler, exercises, link-with Java;
     * blank lines and lines starting with {@code #} are comments.
     */
    static List<CorpusJar> read(Path tsv) throws IOException {
        List<CorpusJar> jars = new ArrayList<>();
        int lineNumber = 0;
        for (String line : Files.readAllLines(tsv, StandardCharsets.UTF_8)) {
            lineNumber++;
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split("\t");
            if (f.length != 5) {
                throw new IllegalStateException(tsv + ":" + lineNumber + ": expected 5 tab-separated fields "
                        + "(name, coordinates, compiler, exercises, link with Java), found " + f.length);
            }
            try {
                jars.add(new CorpusJar(f[0].trim(), f[1].trim(), f[2].trim(), f[3].trim(), Integer.parseInt(f[4].trim())));
            } catch (NumberFormatException e) {
                throw new IllegalStateException(tsv + ":" + lineNumber + ": the Java version '" + f[4] + "' is not a number");
            }
        }
        return jars;
    }
}
