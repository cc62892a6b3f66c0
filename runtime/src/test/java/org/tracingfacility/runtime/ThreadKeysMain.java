package org.tracingfacility.runtime;

import org.tracingfacility.runtime.support.ThreadKeys;
import org.tracingfacility.runtime.support.ThreadsAtWork;

/**
 * {@link ThreadKeysTest}'s JVM: prints how threads are keyed, whether the keys of this thread
 * and of threads it starts are their ids, whether live threads' keys are distinct, and whether
 * the at-work mark of one thread stays its own while another thread, which a third joins
 * (inflating its monitor), goes in and out of work.
 */
public final class ThreadKeysMain {
    private static final int THREADS = 16;

    private ThreadKeysMain() {
    }

    public static void main(String[] args) throws Exception {
        System.out.println("byThreadId " + ThreadKeys.byThreadId());
        int[] keys = new int[THREADS];
        boolean[] idsMatch = new boolean[THREADS];
        boolean[] markOwn = new boolean[THREADS];
        Object start = new Object();
        Thread[] threads = new Thread[THREADS];
        for (int i = 0; i < THREADS; i++) {
            int index = i;
            threads[i] = new Thread(() -> {
                synchronized (start) {
                    // all threads alive at once: their keys are compared while all live
                }
                keys[index] = ThreadKeys.current();
                idsMatch[index] = keys[index] == (int) Thread.currentThread().getId();
                boolean entered = ThreadsAtWork.enterIfIdle();
                boolean atWork = ThreadsAtWork.isAtWork();
                ThreadsAtWork.leave();
                markOwn[index] = entered && atWork && !ThreadsAtWork.isAtWork();
                try {
                    Thread.sleep(200);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
        synchronized (start) {
            for (Thread t : threads) {
                t.start();
            }
        }
        // This thread at work while the others come and go: none of them sees it as theirs.
        ThreadsAtWork.enter();
        for (Thread t : threads) {
            t.join();
        }
        boolean mainStillAtWork = ThreadsAtWork.isAtWork();
        ThreadsAtWork.leave();
        long distinct = java.util.Arrays.stream(keys).distinct().count();
        boolean allIds = true;
        boolean allOwn = true;
        for (int i = 0; i < THREADS; i++) {
            allIds &= idsMatch[i];
            allOwn &= markOwn[i];
        }
        System.out.println("mainIsId " + (ThreadKeys.current() == (int) Thread.currentThread().getId()));
        System.out.println("threadsAreIds " + allIds);
        System.out.println("distinct " + distinct + "/" + THREADS);
        System.out.println("marksOwn " + allOwn);
        System.out.println("mainStillAtWork " + mainStillAtWork + " idleAfter " + !ThreadsAtWork.isAtWork());
    }
}
