package com.example;

import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.ElementType.TYPE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import java.lang.annotation.Retention;
import java.lang.annotation.Target;
import org.tracingfacility.annotation.MethodMonitorGroup;

/** All I/O: monitoring this group monitors both of its subgroups. */
@Retention(RUNTIME)
@Target({TYPE, METHOD})
@MethodMonitorGroup({IORead.class, IOWrite.class})
public @interface IO {}
