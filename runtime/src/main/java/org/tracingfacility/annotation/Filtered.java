package org.tracingfacility.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The built-in TF group of methods selected by a build filter (for example
 * {@code com.example.Dao::load}) that names no group of its own. The enhancer assigns it;
 * register a factory on it like on any other group.
 */
@Documented
@MethodMonitorGroup
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface Filtered {
}
