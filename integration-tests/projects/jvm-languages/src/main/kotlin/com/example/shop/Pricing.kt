package com.example.shop

import org.tracingfacility.annotation.MethodMonitorGroup

/** A TF group defined in Kotlin: compileKotlin's enhancement finds it. */
@Retention(AnnotationRetention.RUNTIME)
@Target(AnnotationTarget.CLASS, AnnotationTarget.FUNCTION)
@MethodMonitorGroup
annotation class Pricing
