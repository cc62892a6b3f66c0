package com.example.shapes

/** An `object`: a class with a static INSTANCE made by its static initializer. */
object Counter {
    private var count = 0

    fun next(): Int = ++count
}
