package com.example.shop

import org.tracingfacility.runtime.MethodMonitorRegistry

/**
 * Attaches a recording monitor to every group, delivers an order through Groovy, Java and
 * Kotlin code, and prints what the monitors saw, one event a line.
 */
class Main {
    static void main(String[] args) {
        Recorder.attachToJavaAndKotlinGroups()
        MethodMonitorRegistry.register(Delivery, { cls -> new Recorder(cls) })
        String result = new Courier().deliver(['tea', 'cake'])
        Recorder.events().each { println "event $it" }
        println result
    }
}
