package com.example.shapes

/** An inline class: its members become static methods on a double, with mangled names. */
@JvmInline
value class Meters(val value: Double) {
    operator fun plus(other: Meters): Meters = Meters(value + other.value)

    override fun toString(): String = "${value}m"
}
