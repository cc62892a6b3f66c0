package org.tracingfacility.runtime;

import java.lang.annotation.Annotation;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MutableCallSite;
import java.util.List;
import org.tracingfacility.runtime.support.GuardedSites;
import org.tracingfacility.runtime.support.SynchronizedHolder;

/**
 * Where one enhanced class finds its monitor for one TF annotation: the holder field that
 * the enhancer added, and the call site of its {@code invokedynamic} instructions. The two
 * always hold the same monitor. Guarded by the registry's lock.
 */
final class MonitorBinding {
    final Class<? extends Annotation> annotation;
    /** Null until the class registers (its {@code <clinit>} may link call sites first). */
    SynchronizedHolder<MethodMonitor> holder;
    /** Null until a monitored method of the class first runs. */
    MutableCallSite callSite;
    /** The guarded site of a class the agent traced ({@link GuardedSites}), or -1. */
    int site = -1;
    /** The factories behind {@link #monitor}, compared by identity to detect changes. */
    List<MethodMonitorFactory> factories = List.of();
    MethodMonitor monitor;

    MonitorBinding(Class<? extends Annotation> annotation) {
        this.annotation = annotation;
    }

    /** Returns the call site, creating it with the current monitor as its target. */
    MutableCallSite callSite() {
        if (callSite == null) {
            callSite = new MutableCallSite(target(monitor));
        }
        return callSite;
    }

    /**
     * Makes {@code newMonitor} the monitor of this binding. A changed call site is added to
     * {@code changedCallSites}, for the caller to publish with {@link MutableCallSite#syncAll}.
     */
    void publish(MethodMonitor newMonitor, List<MutableCallSite> changedCallSites) {
        monitor = newMonitor;
        if (holder != null) {
            holder.content(newMonitor);
        }
        if (callSite != null) {
            callSite.setTarget(target(newMonitor));
            changedCallSites.add(callSite);
        }
        if (site >= 0) {
            GuardedSites.publish(site, ReentryGuard.unguarded(newMonitor));
        }
    }

    /** Moves this binding to another guarded site (the class traced anew), emptying the old one. */
    void moveTo(int newSite) {
        if (site >= 0 && site != newSite) {
            GuardedSites.publish(site, null);
        }
        site = newSite;
    }

    /** A constant target lets the JIT fold the enhanced code's {@code mm != null} test. */
    private static MethodHandle target(MethodMonitor monitor) {
        return MethodHandles.constant(MethodMonitor.class, monitor);
    }
}
