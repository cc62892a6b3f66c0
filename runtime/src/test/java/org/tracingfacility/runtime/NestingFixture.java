package org.tracingfacility.runtime;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import org.tracingfacility.runtime.support.EnhancedCodeSupport;
import org.tracingfacility.runtime.support.SynchronizedHolder;

/**
 * An enhanced class written by hand in the shape the enhancer produces (the token of
 * {@code enterWithToken} in a local, handed to the one {@code exitWithToken} on every path),
 * from:
 * <pre>
 * &#64;Nesting class NestingFixture {
 *     // sleeps at the bottom, or throws there when leafMillis is negative
 *     int depth(int n, long leafMillis) { ... return n == 0 ? 0 : 1 + depth(n - 1, leafMillis); }
 *     void fail(String message) { throw new IllegalStateException(message); }
 *     int survive() { try { fail("inner"); } catch (IllegalStateException e) { } return depth(1, 0); }
 * }
 * </pre>
 */
@TestGroups.Nesting
final class NestingFixture {
    static final int DEPTH = 0;
    static final int FAIL = 1;
    static final int SURVIVE = 2;

    private static final SynchronizedHolder<MethodMonitor> HOLDER = new SynchronizedHolder<>();
    private static final MethodHandle MONITOR = GeneratedCode.link(MethodHandles.lookup(), TestGroups.Nesting.class);

    static {
        EnhancedCodeSupport.registerClass(NestingFixture.class, GeneratedCode.joined("depth", "fail", "survive"),
                new Class<?>[] {TestGroups.Nesting.class}, new SynchronizedHolder<?>[] {HOLDER});
    }

    int depth(int n, long leafMillis) throws InterruptedException {
        MethodMonitor mm = GeneratedCode.monitor(MONITOR);
        long token = 0L;
        if (mm != null) {
            token = mm.enterWithToken(DEPTH,
                    mm.wantsArguments() ? new Object[] {n, leafMillis} : EnhancedCodeSupport.NO_ARGS);
        }
        int result;
        try {
            if (n == 0) {
                if (leafMillis < 0) {
                    IllegalStateException thrown = new IllegalStateException("leaf");
                    EnhancedCodeSupport.thrown(thrown, null, mm, DEPTH);
                    throw thrown;
                }
                Thread.sleep(leafMillis);
                result = 0;
            } else {
                result = 1 + depth(n - 1, leafMillis);
            }
        } catch (Throwable t) {
            if (mm != null) {
                if (!(n == 0 && leafMillis < 0)) { // the explicit throw was reported already
                    mm.exception(DEPTH, t);
                }
                mm.exitWithToken(DEPTH, null, token);
            }
            throw t;
        }
        if (mm != null) {
            mm.exitWithToken(DEPTH, mm.wantsArguments() ? (Object) result : null, token);
        }
        return result;
    }

    void fail(String message) {
        MethodMonitor mm = GeneratedCode.monitor(MONITOR);
        long token = 0L;
        if (mm != null) {
            token = mm.enterWithToken(FAIL, mm.wantsArguments() ? new Object[] {message} : EnhancedCodeSupport.NO_ARGS);
        }
        try {
            IllegalStateException thrown = new IllegalStateException(message);
            EnhancedCodeSupport.thrown(thrown, null, mm, FAIL);
            throw thrown;
        } catch (Throwable t) {
            if (mm != null) {
                mm.exitWithToken(FAIL, token);
            }
            throw t;
        }
    }

    int survive() throws InterruptedException {
        MethodMonitor mm = GeneratedCode.monitor(MONITOR);
        long token = 0L;
        if (mm != null) {
            token = mm.enterWithToken(SURVIVE, EnhancedCodeSupport.NO_ARGS);
        }
        int result;
        try {
            try {
                fail("inner");
            } catch (IllegalStateException e) {
                // survived
            }
            result = depth(1, 0);
        } catch (Throwable t) {
            if (mm != null) {
                mm.exception(SURVIVE, t);
                mm.exitWithToken(SURVIVE, null, token);
            }
            throw t;
        }
        if (mm != null) {
            mm.exitWithToken(SURVIVE, mm.wantsArguments() ? (Object) result : null, token);
        }
        return result;
    }
}
