package com.example.shop.model

/** Pattern matching: an extractor pattern with a guard, a type pattern, a guarded literal type. */
object Describe {
  def describe(x: Any): String = x match {
    case Item(name, cents) if cents > 1000 => s"$name (expensive)"
    case item: Item                        => s"${item.name} (${item.cents} cents)"
    case n: Int if n < 0                   => "a refund"
    case other                             => s"something else: $other"
  }
}
