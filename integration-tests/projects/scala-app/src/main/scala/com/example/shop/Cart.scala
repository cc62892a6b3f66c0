package com.example.shop

import com.example.shop.model.Item

/** What the checkout annotation selects: a closure, a by-name parameter, an exception. */
@Checkout
class Cart {
  /** Each item's price through a closure (a lambda the compiler lifts into this class). */
  @Checkout
  def total(items: Seq[Item]): Int = items.map(_.priceWithTax).sum

  /** Evaluates its by-name argument twice, inside this method's invocation. */
  @Checkout
  def twice(body: => Int): Int = body + body

  @Checkout
  def square(n: Int): Int = n * n

  @Checkout
  def pay(cents: Int): String =
    if (cents < 0) throw new IllegalArgumentException(s"negative amount $cents")
    else s"paid $cents"
}
