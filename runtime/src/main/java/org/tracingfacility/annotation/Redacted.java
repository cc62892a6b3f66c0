package org.tracingfacility.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Keeps a parameter's value away from every monitor: the enhanced code passes
 * a placeholder in its place ({@link org.tracingfacility.runtime.MethodMonitor#isRedacted}), so no
 * factory, however registered, can see it. Use it on passwords, keys and personal data.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface Redacted {
}
