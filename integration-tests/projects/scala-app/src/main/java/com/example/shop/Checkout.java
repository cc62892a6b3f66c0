package com.example.shop;

import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.ElementType.TYPE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import java.lang.annotation.Retention;
import java.lang.annotation.Target;
import org.tracingfacility.annotation.MethodMonitorGroup;

/**
 * The TF annotation of the checkout. In Java: an annotation that Scala code can put on its
 * classes and methods and that the class files keep at run time must be a Java annotation.
 */
@Retention(RUNTIME)
@Target({TYPE, METHOD})
@MethodMonitorGroup
public @interface Checkout {}
