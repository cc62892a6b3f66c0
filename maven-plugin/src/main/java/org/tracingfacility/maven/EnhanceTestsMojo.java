package org.tracingfacility.maven;

import java.io.File;
import java.util.List;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;

/**
 * Enhances the test classes for TF tracing, in place, writing their TF annotation list to
 * {@code META-INF/tf/tfannotations.properties} in the test class directory. Bound to
 * {@code test-compile}, after javac's {@code default-testCompile}, for the reasons
 * {@link EnhanceMojo} gives.
 */
@Mojo(name = "enhance-tests", defaultPhase = LifecyclePhase.TEST_COMPILE,
        requiresDependencyResolution = ResolutionScope.TEST, threadSafe = true)
public class EnhanceTestsMojo extends AbstractEnhanceMojo {
    /** The compiled test classes. */
    @Parameter(defaultValue = "${project.build.testOutputDirectory}", required = true)
    File testClassesDirectory;

    @Parameter(defaultValue = "${project.testClasspathElements}", readonly = true, required = true)
    List<String> testClasspath;

    /** The incremental cache of these classes ({@code useCache}). */
    @Parameter(defaultValue = "${project.build.directory}/tf-cache/test-classes", required = true)
    File cacheDirectory;

    @Override
    File classDirectory() {
        return testClassesDirectory;
    }

    @Override
    File cacheDirectory() {
        return cacheDirectory;
    }

    @Override
    List<String> classpathElements() {
        return testClasspath;
    }

    @Override
    boolean warnsOfUnusedFilters() {
        return false;
    }

    @Override
    List<String> runtimeClasspathElements() {
        return testClasspath; // surefire runs the tests with it
    }
}
