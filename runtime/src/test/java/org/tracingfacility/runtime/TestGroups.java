package org.tracingfacility.runtime;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.tracingfacility.annotation.MethodMonitorGroup;

/**
 * The TF groups of the tests, as a user would write them: {@code IO} has the subgroups
 * {@code IORead} and {@code IOWrite}; {@code IOWrite} is also under {@code Audit}; {@code Deep}
 * is a grandchild of {@code IO} through {@code IORead}. {@code IOWrite} is a TF annotation
 * only by being listed as a subgroup.
 */
final class TestGroups {
    private TestGroups() {
    }

    @MethodMonitorGroup({IORead.class, IOWrite.class})
    @Retention(RetentionPolicy.RUNTIME)
    @Target({ElementType.TYPE, ElementType.METHOD})
    @interface IO {
    }

    @MethodMonitorGroup(Deep.class)
    @Retention(RetentionPolicy.RUNTIME)
    @Target({ElementType.TYPE, ElementType.METHOD})
    @interface IORead {
    }

    /** A subgroup as the README declares one: without {@code @MethodMonitorGroup} of its own. */
    @Retention(RetentionPolicy.RUNTIME)
    @Target({ElementType.TYPE, ElementType.METHOD})
    @interface IOWrite {
    }

    @MethodMonitorGroup(IOWrite.class)
    @Retention(RetentionPolicy.RUNTIME)
    @Target({ElementType.TYPE, ElementType.METHOD})
    @interface Audit {
    }

    @MethodMonitorGroup
    @Retention(RetentionPolicy.RUNTIME)
    @Target({ElementType.TYPE, ElementType.METHOD})
    @interface Deep {
    }

    /** The group of {@code NestingFixture}, in no hierarchy. */
    @MethodMonitorGroup
    @Retention(RetentionPolicy.RUNTIME)
    @Target({ElementType.TYPE, ElementType.METHOD})
    @interface Nesting {
    }

    /** The group of {@code ItemFixture}, whose {@code toString} is monitored. */
    @MethodMonitorGroup
    @Retention(RetentionPolicy.RUNTIME)
    @Target({ElementType.TYPE, ElementType.METHOD})
    @interface Items {
    }

    /** An annotation that is not a TF group. */
    @Retention(RetentionPolicy.RUNTIME)
    @interface NotAGroup {
    }
}
