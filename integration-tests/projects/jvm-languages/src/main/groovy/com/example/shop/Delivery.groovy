package com.example.shop

import java.lang.annotation.ElementType
import java.lang.annotation.Retention
import java.lang.annotation.RetentionPolicy
import java.lang.annotation.Target
import org.tracingfacility.annotation.MethodMonitorGroup

/** A TF group defined in Groovy: compileGroovy's enhancement finds it. */
@Retention(RetentionPolicy.RUNTIME)
@Target([ElementType.TYPE, ElementType.METHOD])
@MethodMonitorGroup
@interface Delivery {}
