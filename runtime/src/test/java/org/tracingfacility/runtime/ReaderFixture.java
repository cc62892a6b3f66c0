package org.tracingfacility.runtime;

import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import org.tracingfacility.annotation.InfoMethod;
import org.tracingfacility.annotation.TracingName;
import org.tracingfacility.runtime.support.EnhancedCodeSupport;
import org.tracingfacility.runtime.support.SynchronizedHolder;

/**
 * An enhanced class, written by hand the way the enhancer would produce it from:
 * <pre>
 * &#64;IORead class ReaderFixture {
 *     int readInt(int value) { return value * 2; }
 *     &#64;TracingName("readFails") void read() throws IOException { throw new IOException("disk gone"); }
 *     long marshal(long value) { startMarshal(); sleep; endMarshal(); note("done", value); return value; }
 *     &#64;InfoMethod(tpType = ENTER, tpName = "marshal") private void startMarshal() {}
 *     &#64;InfoMethod(tpType = EXIT, tpName = "marshal") private void endMarshal() {}
 *     &#64;InfoMethod private void note(String what, long value) {}
 * }
 * </pre>
 * Its call site is linked in the static initializer before {@code registerClass} runs, as
 * when a monitored method runs during class initialization. Like enhanced code it keeps
 * {@code enterWithToken}'s token in a local and hands it to the one {@code exitWithToken}.
 */
@TestGroups.IORead
final class ReaderFixture {
    static final String[] NAMES = {"endMarshal", "marshal", "note", "readFails", "readInt", "startMarshal"};
    static final int END_MARSHAL = 0;
    static final int MARSHAL = 1;
    static final int NOTE = 2;
    static final int READ_FAILS = 3;
    static final int READ_INT = 4;
    static final int START_MARSHAL = 5;

    private static final SynchronizedHolder<MethodMonitor> HOLDER = new SynchronizedHolder<>();
    private static final MethodHandle MONITOR = GeneratedCode.link(MethodHandles.lookup(), TestGroups.IORead.class);

    static {
        EnhancedCodeSupport.registerClass(ReaderFixture.class, GeneratedCode.joined(NAMES),
                new Class<?>[] {TestGroups.IORead.class}, new SynchronizedHolder<?>[] {HOLDER});
    }

    static MethodMonitor currentMonitor() {
        return GeneratedCode.monitor(MONITOR);
    }

    static MethodMonitor holderContent() {
        return HOLDER.content();
    }

    int readInt(int value) {
        MethodMonitor mm = GeneratedCode.monitor(MONITOR);
        long token = 0L;
        if (mm != null) {
            token = mm.enterWithToken(READ_INT,
                    mm.wantsArguments() ? new Object[] {value} : EnhancedCodeSupport.NO_ARGS);
        }
        int result;
        try {
            result = value * 2;
        } catch (Throwable t) {
            EnhancedCodeSupport.failedWithResult(t, null, mm, READ_INT, token);
            throw t;
        }
        if (mm != null) {
            mm.exitWithToken(READ_INT, mm.wantsArguments() ? (Object) result : null, token);
        }
        return result;
    }

    @TracingName("readFails")
    void read() throws IOException {
        MethodMonitor mm = GeneratedCode.monitor(MONITOR);
        long token = 0L;
        if (mm != null) {
            token = mm.enterWithToken(READ_FAILS, EnhancedCodeSupport.NO_ARGS);
        }
        Throwable lastReported = null;
        try {
            IOException thrown = new IOException("disk gone");
            lastReported = thrown;
            EnhancedCodeSupport.thrown(thrown, null, mm, READ_FAILS); // reported before it happens
            throw thrown;
        } catch (Throwable t) {
            EnhancedCodeSupport.failed(t, lastReported, mm, READ_FAILS, token);
            throw t;
        }
    }

    long marshal(long value, long sleepMillis) throws InterruptedException {
        MethodMonitor mm = GeneratedCode.monitor(MONITOR);
        long token = 0L;
        if (mm != null) {
            token = mm.enterWithToken(MARSHAL,
                    mm.wantsArguments() ? new Object[] {value, sleepMillis} : EnhancedCodeSupport.NO_ARGS);
        }
        try {
            startMarshal(mm, MARSHAL);
            Thread.sleep(sleepMillis);
            endMarshal(mm, MARSHAL);
            note("done", value, mm, MARSHAL);
        } catch (Throwable t) {
            EnhancedCodeSupport.failedWithResult(t, null, mm, MARSHAL, token);
            throw t;
        }
        if (mm != null) {
            mm.exitWithToken(MARSHAL, mm.wantsArguments() ? (Object) value : null, token);
        }
        return value;
    }

    @InfoMethod(tpType = TimingPointType.ENTER, tpName = "marshal")
    private void startMarshal(MethodMonitor mm, int callerId) {
        if (mm != null) {
            mm.info(new Object[0], callerId, START_MARSHAL, TimingPointType.ENTER);
        }
    }

    @InfoMethod(tpType = TimingPointType.EXIT, tpName = "marshal")
    private void endMarshal(MethodMonitor mm, int callerId) {
        if (mm != null) {
            mm.info(new Object[0], callerId, END_MARSHAL, TimingPointType.EXIT);
        }
    }

    @InfoMethod
    private void note(String what, long value, MethodMonitor mm, int callerId) {
        if (mm != null) {
            mm.info(new Object[] {what, value}, callerId, NOTE, TimingPointType.NONE);
        }
    }
}
