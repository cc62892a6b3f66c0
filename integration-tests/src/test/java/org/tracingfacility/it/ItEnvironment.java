package org.tracingfacility.it;

import java.nio.file.Path;
import java.nio.file.Paths;

/** What the integration build passes in (failsafe system properties; see the module's pom). */
final class ItEnvironment {
    private ItEnvironment() {}

    /** The TF version under test, installed in {@link #localRepository()}. */
    static String tfVersion() {
        return required("tf.version");
    }

    /** {@code integration-tests/projects}: the projects the builds copy. */
    static Path projectsDir() {
        return Paths.get(required("tf.it.projects"));
    }

    /** {@code integration-tests/target/it}: where the copies are built. */
    static Path workDir() {
        return Paths.get(required("tf.it.work"));
    }

    /** The local repository the reactor installed TF into; the builds under test use it too. */
    static Path localRepository() {
        return Paths.get(required("tf.it.localRepository"));
    }

    /** The version this reactor's artifacts carry in {@link #releaseRepository()}. */
    static String releaseVersion() {
        return required("tf.it.releaseVersion");
    }

    /**
     * A local repository holding this reactor's Gradle plugin (with its marker) and runtime
     * under {@link #releaseVersion()}: what a release would publish. Gradle 4.4.1 resolves
     * only non-SNAPSHOT versions in {@code plugins {}}.
     */
    static Path releaseRepository() {
        return Paths.get(required("tf.it.releaseRepository"));
    }

    /**
     * Gradle 8.11.1's launcher, {@code ../shared/gradle8/gradle8} beside the repository (as CI
     * has it); fails, saying where it was looked for, when it is missing.
     */
    static Path gradle8Executable() {
        Path gradle8 = Paths.get(required("tf.it.gradle8")).normalize();
        if (!gradle8.toFile().canExecute()) {
            throw new IllegalStateException("no Gradle 8.11.1 at " + gradle8
                    + ": the tests expect ../shared/gradle8/gradle8 beside the repository (as CI has it)");
        }
        return gradle8;
    }

    /** The Maven executable the builds under test run: the machine's (3.8). */
    static String mavenExecutable() {
        return required("tf.it.mvn");
    }

    /** The newest Maven 3.9, unpacked from Maven Central by the module's build. */
    static String maven39Executable() {
        Path mvn = Paths.get(required("tf.it.mvn39"));
        // The unpacked launcher script may have lost its executable bit.
        if (!mvn.toFile().canExecute() && !mvn.toFile().setExecutable(true)) {
            throw new IllegalStateException("cannot make " + mvn + " executable");
        }
        return mvn.toString();
    }

    /** The installed {@code tf-runtime} jar, which enhanced classes need at run time. */
    static Path runtimeJar() {
        String version = tfVersion();
        return localRepository().resolve("org/tracingfacility/tf-runtime").resolve(version)
                .resolve("tf-runtime-" + version + ".jar");
    }

    /** The installed {@code tf-agent} jar, for {@code -javaagent}. */
    static Path agentJar() {
        String version = tfVersion();
        return localRepository().resolve("org/tracingfacility/tf-agent").resolve(version)
                .resolve("tf-agent-" + version + ".jar");
    }

    /** The {@code java} of the JDK running the tests. */
    static String javaExecutable() {
        return Paths.get(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** {@code integration-tests/corpus/jars.tsv}: the real jars {@code CorpusIT} enhances and links. */
    static Path corpusTable() {
        return Paths.get(required("tf.it.corpus"));
    }

    /** The maven-dependency-plugin version the reactor uses, for the corpus's resolution. */
    static String dependencyPluginVersion() {
        return required("tf.it.dependencyPluginVersion");
    }

    /** The reactor's {@code tf-enhance} CLI (the release build of tf-core). */
    static Path enhanceCli() {
        Path cli = Paths.get(required("tf.it.enhanceCli"));
        if (!cli.toFile().canExecute()) {
            throw new IllegalStateException("no tf-enhance at " + cli + ": build the reactor (core-jni) first");
        }
        return cli;
    }

    /** JDK 25 ({@code TF_JDK25_HOME}, else Temurin's Debian location), for classes newer than the running JDK. */
    static Path jdk25Home() {
        String home = System.getenv("TF_JDK25_HOME");
        Path jdk = Paths.get(home == null || home.isBlank() ? "/usr/lib/jvm/temurin-25-jdk-amd64" : home);
        if (!jdk.resolve("bin/java").toFile().canExecute()) {
            throw new IllegalStateException("no JDK 25 at " + jdk + " (set TF_JDK25_HOME)");
        }
        return jdk;
    }

    /** A {@code java} of at least the given feature version: the running JDK's if it is new enough, else JDK 25's. */
    static String javaExecutable(int featureVersion) {
        if (Runtime.version().feature() >= featureVersion) {
            return javaExecutable();
        }
        if (featureVersion > 25) {
            throw new IllegalStateException("no JDK " + featureVersion + " here: the newest is JDK 25");
        }
        return jdk25Home().resolve("bin/java").toString();
    }

    private static String required(String property) {
        String value = System.getProperty(property);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("system property " + property
                    + " is not set; run the integration tests through Maven (failsafe)");
        }
        return value;
    }
}
