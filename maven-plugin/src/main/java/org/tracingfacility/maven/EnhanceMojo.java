package org.tracingfacility.maven;

import java.io.File;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.maven.model.Dependency;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;

/**
 * Enhances the main classes for TF tracing, in place, and writes the list of TF annotations
 * to {@code META-INF/tf/tfannotations.properties} in the class directory, so it lands in the jar.
 * Nothing is written if any class fails.
 *
 * <p>Bound to {@code compile}, not {@code process-classes}: {@code mvn compile} (and what IDEs
 * delegate to Maven) must leave enhanced classes, or {@code -Dtf.monitor} finds nothing to
 * monitor and says nothing. Maven runs the packaging's own bindings of a phase (javac's
 * {@code default-compile}) before every execution a POM binds to it, wherever the POM declares
 * this plugin; other compilers bound to {@code compile} in the POM (Kotlin, Scala) run in POM
 * order, so this plugin goes after them.
 */
@Mojo(name = "enhance", defaultPhase = LifecyclePhase.COMPILE,
        requiresDependencyResolution = ResolutionScope.COMPILE_PLUS_RUNTIME, threadSafe = true)
public class EnhanceMojo extends AbstractEnhanceMojo {
    /** The compiled main classes. */
    @Parameter(defaultValue = "${project.build.outputDirectory}", required = true)
    File classesDirectory;

    @Parameter(defaultValue = "${project.compileClasspathElements}", readonly = true, required = true)
    List<String> compileClasspath;

    /** Where the enhanced classes will find tf-runtime when they run (not {@code provided}). */
    @Parameter(defaultValue = "${project.runtimeClasspathElements}", readonly = true, required = true)
    List<String> runtimeClasspath;

    /** The POM's dependencies, for {@link OptionalRuntimeCheck}. */
    @Parameter(defaultValue = "${project.dependencies}", readonly = true)
    List<Dependency> dependencies;

    /** The incremental cache of these classes ({@code useCache}). */
    @Parameter(defaultValue = "${project.build.directory}/tf-cache/classes", required = true)
    File cacheDirectory;

    @Override
    File classDirectory() {
        return classesDirectory;
    }

    @Override
    File cacheDirectory() {
        return cacheDirectory;
    }

    @Override
    List<String> classpathElements() {
        return compileClasspath;
    }

    @Override
    boolean warnsOfUnusedFilters() {
        return true;
    }

    @Override
    List<String> runtimeClasspathElements() {
        return runtimeClasspath;
    }

    /** The main classes are what other projects get: tf-runtime must reach them too. */
    @Override
    List<String> setupWarnings() {
        return OptionalRuntimeCheck.warning(dependencies).stream().collect(Collectors.toList());
    }
}
