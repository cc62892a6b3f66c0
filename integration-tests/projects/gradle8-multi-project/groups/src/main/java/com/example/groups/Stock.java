package com.example.groups;

import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.ElementType.TYPE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import java.lang.annotation.Retention;
import java.lang.annotation.Target;
import org.tracingfacility.annotation.MethodMonitorGroup;

/** Stock keeping: a TF group defined in one project and used in another. */
@Retention(RUNTIME)
@Target({TYPE, METHOD})
@MethodMonitorGroup
public @interface Stock {}
