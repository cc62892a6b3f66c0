package com.example.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Runs in the test worker, where tf.monitor attaches dprint to Stock and Probe. */
@Probe
class ShelfTest {
    @Test
    void countsWhatWasAdded() {
        assertEquals(4, filled(4));
    }

    @Probe
    int filled(int items) {
        Shelf shelf = new Shelf();
        shelf.add(items);
        return shelf.count();
    }
}
