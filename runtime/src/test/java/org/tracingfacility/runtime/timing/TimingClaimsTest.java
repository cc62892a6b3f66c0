package org.tracingfacility.runtime.timing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** How a timed call finds its thread's rows while threads come and go beside threads that live on. */
class TimingClaimsTest {
    /**
     * Six threads live on, holding claims; two thousand more come and go, one at a time. Each
     * finds a slot: the ended threads' slots pass on, and a thread whose home a live thread
     * holds takes the next free one rather than the slow way on every call.
     */
    @Test
    void everyNewThreadClaimsASlotWhileLiveThreadsHoldMost() throws Exception {
        TimingFactory factory = new TimingFactory();
        TimingMonitor monitor = new TimingMonitor(TimingClaimsTest.class, factory, new int[] {0}, new int[] {-1});
        int living = 6;
        CountDownLatch claimed = new CountDownLatch(living);
        CountDownLatch done = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < living; i++) {
            Thread t = new Thread(() -> {
                call(monitor);
                claimed.countDown();
                try {
                    done.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            t.start();
            threads.add(t);
        }
        claimed.await();
        AtomicInteger withoutClaim = new AtomicInteger();
        for (int i = 0; i < 2000; i++) {
            Thread t = new Thread(() -> {
                call(monitor);
                if (!monitor.claimedByCurrentThread()) {
                    withoutClaim.incrementAndGet();
                }
            });
            t.start();
            t.join();
        }
        done.countDown();
        for (Thread t : threads) {
            t.join();
        }
        assertEquals(0, withoutClaim.get(), "threads left without a claim");
    }

    private static void call(TimingMonitor monitor) {
        monitor.exitWithToken(0, monitor.enterWithToken(0));
    }
}
