package org.tracingfacility.micrometer.shop;

import java.io.IOException;

/**
 * An application that knows nothing of TF nor of Micrometer: what flags alone must make
 * observable. Makes the calls {@code PrometheusBackendTest} counts, then, given the argument
 * {@code wait}, stays up until its standard input ends, so that Prometheus can scrape it.
 */
public final class PlainShopMain {
    private PlainShopMain() {
    }

    public static void main(String[] args) throws IOException {
        Shop shop = new Shop();
        for (int i = 0; i < 12; i++) {
            shop.price(i);
        }
        for (int amount : new int[] {1, 2, 3, -1, -2}) {
            try {
                shop.pay(amount);
            } catch (IllegalArgumentException expected) {
                // counted as an error
            }
        }
        System.out.println("calls made");
        if (args.length > 0 && args[0].equals("wait")) {
            while (System.in.read() >= 0) {
                // until the test closes our standard input
            }
        }
    }
}
