package org.tracingfacility.agent;

import java.util.List;

/** The core as a start uses it: one loaded class into the guarded shape. */
interface ShapeEnhancer {
    /**
     * The class's bytes with tracing added, method bodies only.
     *
     * @param className binary name, for messages
     * @param bytes the class as the JVM gives it to a retransforming transformer
     * @param supertypes every supertype of the class (binary names), for {@code Type+} filters
     * @param groups the TF annotations the class's loader knows of (binary names)
     * @param filters the start's filters
     * @return the new bytes, or null when nothing in the class is selected
     * @throws Refusal when the core cannot trace the class, with its one-line reason
     */
    byte[] guarded(String className, byte[] bytes, List<String> supertypes, List<String> groups, List<String> filters)
            throws Refusal;

    /** Why a class stays as it was: the core's diagnostic, or what failed. */
    final class Refusal extends Exception {
        private static final long serialVersionUID = 1L;
        /** The filters are wrong, not the class: every class would be refused alike. */
        final boolean badFilter;

        Refusal(String reason, boolean badFilter) {
            super(reason, null, false, false);
            this.badFilter = badFilter;
        }
    }
}
