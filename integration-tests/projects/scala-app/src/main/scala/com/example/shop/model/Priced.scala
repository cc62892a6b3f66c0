package com.example.shop.model

/** A trait with a default method: scalac 2.12+ makes it an interface default method. */
trait Priced {
  def price: Int

  def priceWithTax: Int = price * 6 / 5
}
