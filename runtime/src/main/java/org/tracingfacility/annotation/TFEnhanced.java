package org.tracingfacility.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Written by the enhancer on every class it changes, so that a class is never enhanced
 * twice. Users do not write it.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface TFEnhanced {
    /** The last stage applied: 1 (schema) or 2 (tracing code). */
    int stage();

    /** Identifies the enhancer and the settings that produced the class. */
    String fingerprint();
}
