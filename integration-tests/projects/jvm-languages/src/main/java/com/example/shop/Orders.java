package com.example.shop;

import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.ElementType.TYPE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import java.lang.annotation.Retention;
import java.lang.annotation.Target;
import org.tracingfacility.annotation.MethodMonitorGroup;

/** A TF group defined in Java: compileJava's enhancement finds it. */
@Retention(RUNTIME)
@Target({TYPE, METHOD})
@MethodMonitorGroup
public @interface Orders {}
