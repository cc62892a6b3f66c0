package com.example;

import static java.lang.annotation.RetentionPolicy.RUNTIME;

import java.lang.annotation.Retention;
import org.tracingfacility.annotation.MethodMonitorGroup;

@Retention(RUNTIME)
@MethodMonitorGroup
public @interface Audit {}
