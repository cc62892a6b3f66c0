package com.example.shop

/** Groovy code calling the Java checkout, traced by its own group. */
@Delivery
class Courier {
    @Delivery
    String deliver(List<String> items) {
        int total = new Checkout().total(items)
        "delivered ${items.size()} items for ${total}"
    }
}
