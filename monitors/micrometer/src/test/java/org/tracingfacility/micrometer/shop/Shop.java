package org.tracingfacility.micrometer.shop;

/**
 * A small application whose methods TF monitors: {@code tf:enhance-tests} enhances it when
 * the tests compile, as the plugin enhances a user's classes.
 */
@Checkout
@Stock
public class Shop {
    @Checkout
    public int price(int items) {
        return items * 3 + (inStock(items) ? 0 : 5);
    }

    @Checkout
    public void pay(int amount) {
        if (amount < 0) {
            throw new IllegalArgumentException("a negative amount: " + amount);
        }
    }

    @Stock
    public boolean inStock(int items) {
        return items < 10;
    }
}
