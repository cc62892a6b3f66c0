package org.tracingfacility.runtime.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.tracingfacility.runtime.support.ThreadChurn;

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
     * (bench/agent/whole-jdk: some rounds took twice as long).
     */
    @Test
    void everyNewThreadClaimsASlotWhileLiveThreadsHoldSome() throws Exception {
        int living = 24;
        int passing = 2000;
        int without = ThreadChurn.passingWithout(() -> factory.claimedSlot(ProfileFactory.home()) >= 0, this::call,
                living, passing);
        assertEquals(0, without, "threads left without a claim");
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
}
