package org.tracingfacility.runtime.support;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * Threads that come and go beside threads that live on, as a pool's do: for the per-thread
 * claims of monitors, whose slots are picked by thread keys that wrap around as threads come.
 */
public final class ThreadChurn {
    private ThreadChurn() {
    }

    /**
     * Starts {@code living} threads that each {@code call} and then wait, and once all have
     * called, {@code passing} threads one after another that each {@code call} and end.
     *
     * @return how many of the passing threads found {@code claimed} false after their call
     */
    public static int passingWithout(BooleanSupplier claimed, Runnable call, int living, int passing)
            throws InterruptedException {
        CountDownLatch called = new CountDownLatch(living);
        CountDownLatch done = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < living; i++) {
            Thread t = new Thread(() -> {
                call.run();
                called.countDown();
                try {
                    done.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            t.start();
            threads.add(t);
        }
        called.await();
        AtomicInteger without = new AtomicInteger();
        try {
            for (int i = 0; i < passing; i++) {
                Thread t = new Thread(() -> {
                    call.run();
                    if (!claimed.getAsBoolean()) {
                        without.incrementAndGet();
                    }
                });
                t.start();
                t.join();
            }
        } finally {
            done.countDown();
            for (Thread t : threads) {
                t.join();
            }
        }
        return without.get();
    }
}
