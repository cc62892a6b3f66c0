package com.example;

import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.ElementType.TYPE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/** Writes; a subgroup of {@link IO}. */
@Retention(RUNTIME)
@Target({TYPE, METHOD})
public @interface IOWrite {}
