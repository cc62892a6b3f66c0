package org.tracingfacility.runtime.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * How a call finds its thread's tree, the way enhanced code under the agent calls it: the
 * entry's token names the thread's claim slot, which its exit reads.
 */
class ProfileClaimsTest {
    private static final String CALL = ProfileClaimsTest.class.getName() + ".call";

    private final ProfileFactory factory = ProfileFactory.countingCalls();
    private final ProfileMonitor monitor = factory.monitor(ProfileClaimsTest.class, List.of("call"));

    /**
     * Threads come and go while others live on: the new threads' keys wrap around the claim
     * slots onto those the live threads hold. Each new thread still claims a slot (the next
     * free one), and every call is counted. Without a claim, every call of such a thread took
     * the slow way, and the JIT's code of every traced method it ran was thrown away at once
     * (bench/agent/whole-jdk: a round in four was twice as slow).
     */
    @Test
    void everyNewThreadClaimsASlotWhileLiveThreadsHoldSome() throws Exception {
        int living = 24;
        int passing = 2000;
        CountDownLatch claimed = new CountDownLatch(living);
        CountDownLatch done = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < living; i++) {
            Thread t = new Thread(() -> {
                call();
                claimed.countDown();
                awaitQuietly(done);
            });
            t.start();
            threads.add(t);
        }
        claimed.await();
        AtomicInteger withoutClaim = new AtomicInteger();
        for (int i = 0; i < passing; i++) {
            Thread t = new Thread(() -> {
                call();
                if (factory.claimedSlot(ProfileFactory.home()) < 0) {
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
        assertEquals(living + passing, calls());
    }

    /**
     * A token that is not the thread's own (misuse: enhanced code never passes one) ends the
     * thread's own call, found the slow way, and leaves the other thread's tree alone.
     */
    @Test
    void aTokenOfAnotherThreadEndsThisThreadsCall() throws Exception {
        call(); // this thread's claim made: what follows takes the fast way
        long mine = monitor.enterWithToken(0);
        Thread other = new Thread(() -> {
            monitor.enterWithToken(0);
            monitor.exitWithToken(0, mine);
        });
        other.start();
        other.join();
        monitor.exitWithToken(0, mine);
        monitor.exitWithToken(0, Long.MAX_VALUE); // an exit without its entry, a token of no slot: ignored
        monitor.exitWithToken(0, -1);
        assertEquals(3, calls());
    }

    private void call() {
        long token = monitor.enterWithToken(0);
        monitor.exitWithToken(0, token);
    }

    private long calls() {
        CallTree call = factory.profile().child(CALL);
        assertNotNull(call, factory.profile().children().toString());
        return call.calls();
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
