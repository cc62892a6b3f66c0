package com.example;

import static java.lang.annotation.RetentionPolicy.RUNTIME;

import java.lang.annotation.Retention;
import org.tracingfacility.annotation.MethodMonitorGroup;

/** A group defined by test code: tf:enhance-tests lists it for the test classes. */
@Retention(RUNTIME)
@MethodMonitorGroup
public @interface Probe {}
