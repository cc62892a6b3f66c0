package com.example.coroutines

import kotlinx.coroutines.Deferred
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.channels.ReceiveChannel
import kotlinx.coroutines.channels.SendChannel
import kotlinx.coroutines.delay
import kotlinx.coroutines.withContext
import kotlinx.coroutines.yield

/**
 * Suspend functions of the shapes kotlinc compiles differently: a state machine that
 * suspends twice, a suspending tail call (no state machine), a channel's sender and
 * receiver, a context switch, and an exception thrown after a resumption and passed on.
 */
@Suspending
class Pipeline {
    /** Suspends at `delay` and again at `yield`: three invocations of the JVM method. */
    @Suspending
    suspend fun fetch(n: Int): Int {
        delay(1)
        yield()
        return n * 2
    }

    /**
     * Suspends in `withContext` and is invoked again, on the caller's thread, after [square]
     * ran on a worker thread. The work waits for [ready], which the caller completes only once
     * this function has suspended: a worker that finished first would let `withContext` return
     * without suspending, and this function would then be invoked once.
     */
    @Suspending
    suspend fun offload(n: Int, ready: Deferred<Unit>): Int =
        withContext(Dispatchers.Default) {
            ready.await()
            square(n)
        } + 1

    /** A suspending tail call: kotlinc makes no state machine, and the result skips this function. */
    @Suspending
    suspend fun offloadTail(n: Int, ready: Deferred<Unit>): Int =
        withContext(Dispatchers.Default) {
            ready.await()
            square(n)
        }

    @Suspending
    fun square(n: Int): Int = n * n

    @Suspending
    suspend fun produce(channel: SendChannel<Int>, values: List<Int>) {
        for (value in values) {
            channel.send(value)
        }
        channel.close()
    }

    @Suspending
    suspend fun sum(channel: ReceiveChannel<Int>): Int {
        var sum = 0
        for (value in channel) {
            sum += value
        }
        return sum
    }

    /** Throws in its second invocation, the one that resumes after `delay`. */
    @Suspending
    suspend fun failAfterDelay(): Int {
        delay(1)
        throw IllegalStateException("boom")
    }

    /**
     * Lets what [failAfterDelay] threw pass through: resumed with that failure, its state
     * machine rethrows it.
     */
    @Suspending
    suspend fun passOn(): Int = failAfterDelay() + 1

    /** Catches what [passOn] let through, when its own state machine resumes. */
    @Suspending
    suspend fun recover(): String =
        try {
            "got ${passOn()}"
        } catch (e: IllegalStateException) {
            "recovered ${e.message}"
        }
}
