package org.tracingfacility.maven;

import java.util.List;
import java.util.Optional;
import org.apache.maven.model.Dependency;

/**
 * tf-runtime declared {@code <optional>true</optional>}: this project's own run has it (an
 * optional dependency is on its runtime class path, so the core's {@code runtime-missing} check
 * passes), but projects that depend on this one do not get it, and its enhanced classes fail
 * there with {@code NoClassDefFoundError}. A warning, not a failure: what breaks is a class
 * path only the consumers decide (they may declare tf-runtime themselves), and this build's
 * classes and tests are right.
 */
final class OptionalRuntimeCheck {
    static final String GROUP_ID = "org.tracingfacility";
    static final String ARTIFACT_ID = "tf-runtime";

    private OptionalRuntimeCheck() {}

    /** The warning for {@code dependencies} (the POM's, as Maven resolved inheritance), if one is due. */
    static Optional<String> warning(List<Dependency> dependencies) {
        if (dependencies == null) {
            return Optional.empty();
        }
        return dependencies.stream()
                .filter(d -> GROUP_ID.equals(d.getGroupId()) && ARTIFACT_ID.equals(d.getArtifactId()) && d.isOptional())
                .findFirst()
                .map(d -> "TF: the dependency " + d.getManagementKey() + ":" + d.getVersion()
                        + " is <optional>true</optional>: the enhanced classes call it at run time, and projects"
                        + " that depend on this one will not get it (NoClassDefFoundError:"
                        + " org/tracingfacility/runtime/...); remove <optional>true</optional> from it and keep the"
                        + " default (compile) scope (README, Quick start, step 3)");
    }
}
