package org.tracingfacility.bench;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.tracingfacility.annotation.MethodMonitorGroup;

/** The TF group of the benchmarked methods. */
@MethodMonitorGroup
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface BenchGroup {
}
