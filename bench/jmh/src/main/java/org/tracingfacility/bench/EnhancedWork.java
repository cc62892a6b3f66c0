package org.tracingfacility.bench;

import java.lang.invoke.CallSite;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import org.tracingfacility.runtime.EnhancedCodeSupport;
import org.tracingfacility.runtime.MethodMonitor;
import org.tracingfacility.runtime.SynchronizedHolder;

/**
 * {@link PlainWork} as the enhancer rewrites it (see rust-core/src/protocol.rs), written by hand
 * until enhanced classes can be built here. The one difference: Java source cannot contain
 * {@code invokedynamic}, so the call site's dynamic invoker sits in a {@code static final}
 * field, which C2 treats as the same constant (the target inlined, with a dependency on the
 * mutable call site). {@link #workLegacy} is the shape for class files older than version 51,
 * which read the holder field on every call.
 */
@BenchGroup
public class EnhancedWork {
    private static final int WORK = 0;
    private static final int WORK_LEGACY = 1;
    private static final SynchronizedHolder<MethodMonitor> HOLDER = new SynchronizedHolder<>();
    private static final MethodHandle MONITOR;

    static {
        EnhancedCodeSupport.registerClass(EnhancedWork.class, new String[] {"work", "workLegacy"},
                new Class<?>[] {BenchGroup.class}, new SynchronizedHolder<?>[] {HOLDER});
        CallSite site = EnhancedCodeSupport.linkMonitor(MethodHandles.lookup(), "monitor",
                MethodType.methodType(MethodMonitor.class), BenchGroup.class);
        MONITOR = site.dynamicInvoker();
    }

    public int work(int x) {
        MethodMonitor mm;
        try {
            mm = (MethodMonitor) MONITOR.invokeExact();
        } catch (Throwable e) {
            throw new AssertionError(e);
        }
        if (mm != null) {
            mm.enter(WORK, mm.wantsArguments() ? new Object[] {x} : EnhancedCodeSupport.NO_ARGS);
        }
        int result;
        try {
            int h = x * 0x9E3779B1;
            h ^= h >>> 15;
            h *= 0x85EBCA77;
            result = h ^ (h >>> 13);
        } catch (Throwable t) {
            if (mm != null) {
                mm.exception(WORK, t);
                mm.exit(WORK, null);
            }
            throw t;
        }
        if (mm != null) {
            mm.exit(WORK, mm.wantsArguments() ? (Object) result : null);
        }
        return result;
    }

    @SuppressWarnings("unchecked")
    public int workLegacy(int x) {
        MethodMonitor mm = (MethodMonitor) ((SynchronizedHolder<?>) HOLDER).content();
        if (mm != null) {
            mm.enter(WORK_LEGACY, mm.wantsArguments() ? new Object[] {x} : EnhancedCodeSupport.NO_ARGS);
        }
        int result;
        try {
            int h = x * 0x9E3779B1;
            h ^= h >>> 15;
            h *= 0x85EBCA77;
            result = h ^ (h >>> 13);
        } catch (Throwable t) {
            if (mm != null) {
                mm.exception(WORK_LEGACY, t);
                mm.exit(WORK_LEGACY, null);
            }
            throw t;
        }
        if (mm != null) {
            mm.exit(WORK_LEGACY, mm.wantsArguments() ? (Object) result : null);
        }
        return result;
    }
}
