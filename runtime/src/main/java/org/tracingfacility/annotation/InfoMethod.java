package org.tracingfacility.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.tracingfacility.runtime.TimingPointType;

/**
 * Marks a private, non-static, void method with an empty body as an info point: calling it
 * from a monitored method reports its arguments to the caller's monitor through
 * {@link org.tracingfacility.runtime.MethodMonitor#info}. The enhancer replaces the body.
 *
 * <p>{@link #tpType()} and {@link #tpName()} make the call the start ({@code ENTER}) or end
 * ({@code EXIT}) of a named timing interval; the timing monitor measures the time between
 * an {@code ENTER} and the next {@code EXIT} of the same name on the same thread.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface InfoMethod {
    /** Whether this info point starts or ends a timing interval, or neither. */
    TimingPointType tpType() default TimingPointType.NONE;

    /**
     * The name of the timing interval this info point delimits; empty means the interval
     * is named after the monitored method that calls the info method.
     */
    String tpName() default "";
}
