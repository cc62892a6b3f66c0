package com.example.app;

import static java.lang.annotation.RetentionPolicy.RUNTIME;

import java.lang.annotation.Retention;
import org.tracingfacility.annotation.MethodMonitorGroup;

/** A group of the test classes: compileTestJava enhances and lists it. */
@Retention(RUNTIME)
@MethodMonitorGroup
public @interface Probe {}
