package com.example.shop

/** Kotlin code traced by its own group, and by a filter (discount). */
@Pricing
class PriceList {
    private val prices = mapOf("tea" to 3, "cake" to 5)

    @Pricing
    fun priceOf(item: String): Int = prices[item] ?: throw IllegalArgumentException("no price for $item")

    fun discount(total: Int): Int = if (total > 6) total - 1 else total
}
