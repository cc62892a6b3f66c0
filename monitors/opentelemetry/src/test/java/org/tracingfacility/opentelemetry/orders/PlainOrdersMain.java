package org.tracingfacility.opentelemetry.orders;

/**
 * An application that knows nothing of TF nor of OpenTelemetry: what flags and dependencies
 * alone must make traceable. Places one order.
 */
public final class PlainOrdersMain {
    private PlainOrdersMain() {
    }

    public static void main(String[] args) {
        System.out.println("total " + new OrderService().placeOrder("ada", "4111", 2));
    }
}
