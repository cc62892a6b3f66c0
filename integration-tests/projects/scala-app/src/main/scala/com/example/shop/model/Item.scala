package com.example.shop.model

/** A case class: a companion object with `apply`, accessors, and the trait's method. */
case class Item(name: String, cents: Int) extends Priced {
  def price: Int = cents
}
