package org.tracingfacility.runtime;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import org.tracingfacility.runtime.support.EnhancedCodeSupport;
import org.tracingfacility.runtime.support.SynchronizedHolder;

/**
 * An enhanced class of group {@code IOWrite}, written by hand as the enhancer would produce
 * it from
 * <pre>
 * &#64;IOWrite class WriterFixture {
 *     void write(String text) { onWrite.run(); text.length(); }
 *     String copy(int value) { String s = String.valueOf(new ReaderFixture().readInt(value)); write(s); return s; }
 * }
 * </pre>
 * Unlike {@link ReaderFixture} it links its call site lazily, after registration, as usual.
 */
@TestGroups.IOWrite
final class WriterFixture {
    static final int COPY = 0;
    static final int WRITE = 1;

    /** Runs inside {@code write}, where a test can look at the monitors' view of the call. */
    static volatile Runnable onWrite = () -> { };

    private static final SynchronizedHolder<MethodMonitor> HOLDER = new SynchronizedHolder<>();
    /** The lookup the JVM would hand the bootstrap method: the class's own. */
    private static final MethodHandles.Lookup LOOKUP = MethodHandles.lookup();

    static {
        EnhancedCodeSupport.registerClass(WriterFixture.class, GeneratedCode.joined("copy", "write"),
                new Class<?>[] {TestGroups.IOWrite.class}, new SynchronizedHolder<?>[] {HOLDER});
    }

    /** Linked on first use, like an invokedynamic instruction. */
    private static final class Site {
        static final MethodHandle MONITOR = GeneratedCode.link(LOOKUP, TestGroups.IOWrite.class);
    }

    static MethodMonitor holderContent() {
        return HOLDER.content();
    }

    void write(String text) {
        MethodMonitor mm = GeneratedCode.monitor(Site.MONITOR);
        long token = 0L;
        if (mm != null) {
            token = mm.enterWithToken(WRITE, mm.wantsArguments() ? new Object[] {text} : EnhancedCodeSupport.NO_ARGS);
        }
        try {
            onWrite.run();
            text.length(); // the work; throws on null
        } catch (Throwable t) {
            if (mm != null) {
                mm.exception(WRITE, t);
                mm.exitWithToken(WRITE, token);
            }
            throw t;
        }
        if (mm != null) {
            mm.exitWithToken(WRITE, token);
        }
    }

    String copy(int value) {
        MethodMonitor mm = GeneratedCode.monitor(Site.MONITOR);
        long token = 0L;
        if (mm != null) {
            token = mm.enterWithToken(COPY, mm.wantsArguments() ? new Object[] {value} : EnhancedCodeSupport.NO_ARGS);
        }
        String copied;
        try {
            copied = String.valueOf(new ReaderFixture().readInt(value));
            write(copied);
        } catch (Throwable t) {
            if (mm != null) {
                mm.exception(COPY, t);
                mm.exitWithToken(COPY, null, token);
            }
            throw t;
        }
        if (mm != null) {
            mm.exitWithToken(COPY, mm.wantsArguments() ? copied : null, token);
        }
        return copied;
    }
}
