package com.example.generators

/** A `sequence {}` builder: its lambda's state machine runs once per element asked for. */
object Generators {
    fun evens(limit: Int): Sequence<Int> = sequence {
        var i = 0
        while (i < limit) {
            yield(i)
            i += 2
        }
    }
}
