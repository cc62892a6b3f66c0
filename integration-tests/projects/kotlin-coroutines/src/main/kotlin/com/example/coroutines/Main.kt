package com.example.coroutines

import com.example.generators.Generators
import com.example.recording.Recorder
import com.example.shapes.Counter
import com.example.shapes.Meters
import com.example.shapes.Shape
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.Deferred
import kotlinx.coroutines.channels.Channel
import kotlinx.coroutines.coroutineScope
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import org.tracingfacility.annotation.Filtered
import org.tracingfacility.runtime.MethodMonitorRegistry

/**
 * Runs the coroutine cases on one event loop (runBlocking on `main`), so that their events come
 * in one order, then the others; the recording monitor is attached to both groups.
 */
fun main() {
    MethodMonitorRegistry.register(Suspending::class.java, Recorder)
    MethodMonitorRegistry.register(Filtered::class.java, Recorder)
    val pipeline = Pipeline()
    runBlocking {
        println("-- delay, then yield")
        println("fetch(3) = ${pipeline.fetch(3)}")
        println("-- withContext")
        println("offload(4) = ${pipeline.offload(4, readyOnceSuspended())}")
        println("offloadTail(5) = ${pipeline.offloadTail(5, readyOnceSuspended())}")
        println("-- channel")
        val sum = coroutineScope {
            val channel = Channel<Int>() // rendezvous: each send waits for a receive
            launch { pipeline.produce(channel, listOf(1, 2)) }
            pipeline.sum(channel)
        }
        println("sum = $sum")
        println("-- exception")
        println(pipeline.recover())
    }
    println("-- sequence")
    println("evens = ${Generators.evens(5).toList()}")
    println("-- shapes")
    println(Shape("square").describe())
    println(Shape("triangle", 3).describe())
    println("counter ${Counter.next()} ${Counter.next()}")
    println("total ${Meters(1.5) + Meters(2.0)}")
}

/**
 * Completed by a coroutine of this event loop, which runs only when the caller has suspended:
 * work that awaits it cannot finish before its caller suspends.
 */
private fun CoroutineScope.readyOnceSuspended(): Deferred<Unit> {
    val ready = CompletableDeferred<Unit>()
    launch { ready.complete(Unit) }
    return ready
}
