package com.example.app;

import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.ElementType.TYPE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import java.lang.annotation.Retention;
import java.lang.annotation.Target;
import org.tracingfacility.annotation.MethodMonitorGroup;

/** Label printing: this project's own TF group, so its jar lists it. */
@Retention(RUNTIME)
@Target({TYPE, METHOD})
@MethodMonitorGroup
public @interface Labels {}
