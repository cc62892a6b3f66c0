package com.example.coroutines

import org.tracingfacility.annotation.MethodMonitorGroup

/** A TF annotation declared in Kotlin: kotlinc writes it as a RUNTIME-retained Java annotation. */
@MethodMonitorGroup
@Retention(AnnotationRetention.RUNTIME)
@Target(AnnotationTarget.CLASS, AnnotationTarget.FUNCTION)
annotation class Suspending
