package org.tracingfacility.runtime.support;

import org.tracingfacility.runtime.MethodMonitor;
import org.tracingfacility.runtime.TimingPointType;

/**
 * The monitor a guarded site hands out (classes the agent traced): every call into the
 * monitor it wraps runs with the thread {@linkplain ThreadsAtWork at work}, so that nothing the
 * monitor does, nor the boxing TF does for it, reaches a monitor again.
 *
 * <p>The protocol with generated code: {@link GuardedSites#monitor} answers this only after
 * recording the thread at work, and the {@link #enterWithToken} that follows (after the
 * arguments are boxed, at work) leaves. Exits and exceptions enter and leave themselves; the
 * support calls that box a result or keep the ending throwable ({@link EnhancedCodeSupport})
 * enter first for the same reason.
 *
 * <p>A monitor that throws never fails the traced method: the JDK hands monitors objects in
 * any state (a {@code CharBuffer} returned by {@code limit} while its constructor runs, whose
 * {@code toString} throws), so the failure is said once on standard error and the event
 * dropped. (Errors such as {@code OutOfMemoryError} go on as thrown.)
 */
final class GuardedMonitor implements MethodMonitor {
    private final MethodMonitor monitor;
    /**
     * Whether a failure of {@link #monitor} was said already; under this object's lock (see
     * {@link #firstFailure}).
     */
    private boolean failed;
    /** Asked once, at work: generated code asks at every call. */
    private final boolean wantsArguments;

    GuardedMonitor(MethodMonitor monitor) {
        this.monitor = monitor;
        this.wantsArguments = monitor.wantsArguments();
    }

    /** The monitor this one guards. */
    MethodMonitor guarded() {
        return monitor;
    }

    @Override
    public boolean wantsArguments() {
        return wantsArguments;
    }

    @Override
    public long enterWithToken(int ident, Object... args) {
        // The thread is at work since GuardedSites.monitor answered.
        try {
            return monitor.enterWithToken(ident, args);
        } catch (RuntimeException | LinkageError e) {
            dropped(e);
            return 0L;
        } finally {
            ThreadsAtWork.leave();
        }
    }

    @Override
    public void exitWithToken(int ident, long token) {
        boolean recorded = ThreadsAtWork.enter();
        try {
            monitor.exitWithToken(ident, token);
        } catch (RuntimeException | LinkageError e) {
            dropped(e);
        } finally {
            if (recorded) {
                ThreadsAtWork.leave();
            }
        }
    }

    @Override
    public void exitWithToken(int ident, Object result, long token) {
        boolean recorded = ThreadsAtWork.enter();
        try {
            monitor.exitWithToken(ident, result, token);
        } catch (RuntimeException | LinkageError e) {
            dropped(e);
        } finally {
            if (recorded) {
                ThreadsAtWork.leave();
            }
        }
    }

    @Override
    public void exception(int ident, Throwable thr) {
        boolean recorded = ThreadsAtWork.enter();
        try {
            monitor.exception(ident, thr);
        } catch (RuntimeException | LinkageError e) {
            dropped(e);
        } finally {
            if (recorded) {
                ThreadsAtWork.leave();
            }
        }
    }

    @Override
    public Class<?> myClass() {
        return monitor.myClass();
    }

    @Override
    public void enter(int ident, Object... args) {
        boolean recorded = ThreadsAtWork.enter();
        try {
            monitor.enter(ident, args);
        } catch (RuntimeException | LinkageError e) {
            dropped(e);
        } finally {
            if (recorded) {
                ThreadsAtWork.leave();
            }
        }
    }

    @Override
    public void info(Object[] args, int callerIdent, int selfIdent, TimingPointType tpType) {
        boolean recorded = ThreadsAtWork.enter();
        try {
            monitor.info(args, callerIdent, selfIdent, tpType);
        } catch (RuntimeException | LinkageError e) {
            dropped(e);
        } finally {
            if (recorded) {
                ThreadsAtWork.leave();
            }
        }
    }

    @Override
    public void exit(int ident) {
        boolean recorded = ThreadsAtWork.enter();
        try {
            monitor.exit(ident);
        } catch (RuntimeException | LinkageError e) {
            dropped(e);
        } finally {
            if (recorded) {
                ThreadsAtWork.leave();
            }
        }
    }

    @Override
    public void exit(int ident, Object result) {
        boolean recorded = ThreadsAtWork.enter();
        try {
            monitor.exit(ident, result);
        } catch (RuntimeException | LinkageError e) {
            dropped(e);
        } finally {
            if (recorded) {
                ThreadsAtWork.leave();
            }
        }
    }

    @Override
    public void clear() {
        monitor.clear();
    }

    @Override
    public String toString() {
        return monitor.toString();
    }

    /**
     * True for the first failure only. A lock, not an {@code AtomicBoolean}: its class
     * initialization builds a {@code VarHandle}, milliseconds of an agent's start-up.
     */
    private synchronized boolean firstFailure() {
        if (failed) {
            return false;
        }
        failed = true;
        return true;
    }

    /** Says once that the monitor failed; the event is dropped. */
    private void dropped(Throwable failure) {
        if (firstFailure()) {
            System.err.println("TF: the monitor " + monitor + " of " + monitor.myClass().getName() + " threw " + failure
                    + "; the traced method runs on, and this monitor's failing events are dropped");
        }
    }
}
