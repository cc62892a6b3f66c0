package com.example.shop;

import java.util.List;

/** Java code calling the Kotlin price list. */
@Orders
public class Checkout {
    private final PriceList prices = new PriceList();

    @Orders
    public int total(List<String> items) {
        int sum = 0;
        for (String item : items) {
            sum += prices.priceOf(item);
        }
        return prices.discount(sum);
    }
}
