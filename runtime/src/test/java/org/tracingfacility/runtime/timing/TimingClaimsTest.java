package org.tracingfacility.runtime.timing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.tracingfacility.runtime.support.ThreadChurn;

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
        int without = ThreadChurn.passingWithout(monitor::claimedByCurrentThread, () -> call(monitor), 6, 2000);
        assertEquals(0, without, "threads left without a claim");
    }

    private static void call(TimingMonitor monitor) {
        monitor.exitWithToken(0, monitor.enterWithToken(0));
    }
}
