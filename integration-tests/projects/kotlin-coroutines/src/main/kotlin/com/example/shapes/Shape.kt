package com.example.shapes

/** A default argument: kotlinc adds a synthetic constructor that fills it in and calls this one. */
class Shape(val name: String, val sides: Int = 4) {
    fun describe(): String = "$name has $sides sides"
}
