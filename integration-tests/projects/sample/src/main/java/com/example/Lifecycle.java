package com.example;

import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.ElementType.TYPE;
import static java.lang.annotation.RetentionPolicy.CLASS;

import java.lang.annotation.Retention;
import java.lang.annotation.Target;
import org.tracingfacility.annotation.MethodMonitorGroup;

/** Opening and resetting streams: a group of its own, kept in the class files only. */
@Retention(CLASS)
@Target({TYPE, METHOD})
@MethodMonitorGroup
public @interface Lifecycle {}
