package com.example.shop

import com.example.recording.Recorder
import com.example.shop.model.{Describe, Item}
import org.tracingfacility.annotation.Filtered
import org.tracingfacility.runtime.MethodMonitorRegistry

/** Runs each case with the recording monitor attached to both groups. */
object Main {
  def main(args: Array[String]): Unit = {
    MethodMonitorRegistry.register(classOf[Checkout], Recorder)
    MethodMonitorRegistry.register(classOf[Filtered], Recorder)
    val cart = new Cart
    println("-- case class")
    val tea = Item("tea", 250)
    val pot = Item("teapot", 2000)
    println("-- trait default method")
    println(s"tea with tax: ${tea.priceWithTax}")
    println("-- closure")
    println(s"total: ${cart.total(Seq(tea, pot))}")
    println("-- by-name")
    println(s"twice: ${cart.twice(cart.square(3))}")
    println("-- pattern matching")
    println(Describe.describe(pot))
    println(Describe.describe(tea))
    println(Describe.describe(-5))
    println("-- exception")
    try println(cart.pay(-1))
    catch { case e: IllegalArgumentException => println(s"refused: ${e.getMessage}") }
  }
}
