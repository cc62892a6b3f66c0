package org.tracingfacility.opentelemetry.orders;

import org.tracingfacility.annotation.InfoMethod;
import org.tracingfacility.annotation.Redacted;

/**
 * A small application whose methods TF monitors: {@code tf:enhance-tests} enhances it when
 * the tests compile, as the plugin enhances a user's classes.
 */
@Orders
public class OrderService {
    /** Prices the order and charges the card; a card is declined above 100. */
    @Orders
    public int placeOrder(String customer, @Redacted String cardNumber, int items) {
        reserved("items reserved", items);
        int total = priceOf(items);
        charge(cardNumber, total);
        return total;
    }

    @Orders
    public int priceOf(int items) {
        return items * 12;
    }

    @Orders
    public void charge(@Redacted String cardNumber, int amount) {
        if (amount > 100) {
            throw new IllegalStateException("card declined for " + amount);
        }
    }

    @InfoMethod
    private void reserved(String what, int count) {
    }
}
