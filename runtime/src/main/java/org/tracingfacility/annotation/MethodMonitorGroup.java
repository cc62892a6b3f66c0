package org.tracingfacility.annotation;

import java.lang.annotation.Annotation;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Makes the annotation type it is put on a TF annotation: a monitor group.
 *
 * <p>A method carrying a TF annotation (directly, or through its class) is enhanced to
 * report its entries and exits. {@link #value()} lists the group's subgroups: a factory
 * registered on this group applies to every subgroup, transitively, unless the subgroup
 * has a registration of its own.
 *
 * <pre>{@code
 * @MethodMonitorGroup({IORead.class, IOWrite.class})
 * @Retention(RUNTIME) @Target({TYPE, METHOD})
 * public @interface IO {}
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.ANNOTATION_TYPE)
public @interface MethodMonitorGroup {
    /** The subgroups of this group; each must itself be a TF annotation. */
    Class<? extends Annotation>[] value() default {};
}
