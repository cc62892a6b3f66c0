package org.tracingfacility.runtime.timing;

/**
 * The clock timing reads twice per measured call. Where the JVM lets TF reach it, that is
 * JFR's tick counter, {@code jdk.jfr.internal.JVM.counterTime()}: a HotSpot intrinsic (checked
 * with {@code -XX:+PrintIntrinsics} on JDK 17 and 25) that reads the CPU's time-stamp counter
 * where the CPU has an invariant one, the clock JFR's own method timing reads. It costs a
 * fraction of {@link System#nanoTime()} on machines whose {@code clock_gettime} is slow,
 * virtual machines in particular. Reaching it needs
 * {@code --add-exports jdk.jfr/jdk.jfr.internal=ALL-UNNAMED} (or the named module of the TF
 * runtime; the agent grants it itself); without that, or on a JVM without JFR, the clock is
 * {@link System#nanoTime()}.
 *
 * <p>The counter is called directly ({@code invokestatic}), from a class of this package that
 * TF defines as it initializes ({@link TickReaders}), not through a method handle: a handle's
 * invokers are JDK code ({@code java.lang.invoke.Invokers}) that the agent may trace, and
 * {@code timing} reads the clock outside the mark that keeps monitors from reaching monitors
 * ({@link org.tracingfacility.runtime.support.SelfGuardedMonitor}). TF's own classes are never
 * traced, and the counter has no bytecode.
 *
 * <p>Statistics are kept in the clock's unit; a report converts ticks to nanoseconds with the
 * frequency JFR reports ({@link #toNanos}), so durations mean the same whichever clock was
 * chosen, and a timed call pays no conversion. The choice is made once, when the class
 * initializes, and held in constants: the JIT folds the branch away and inlines the chosen
 * read.
 *
 * <p>Public for {@code profile}, which times calls with the same clock; not for users.
 */
public final class TimingClock {
    /** Reads JFR's tick counter, or null when the clock is System.nanoTime(). */
    private static final TickReader TICKS;
    /** Nanoseconds per tick of {@link #TICKS}. */
    private static final double NANOS_PER_TICK;
    /** What a report says about the clock. */
    static final String DESCRIPTION;

    static {
        // The agent may be granting the counter on another thread right now: choose after it.
        org.tracingfacility.runtime.support.InternalsGrant.await();
        JfrTicks ticks = JfrTicks.find();
        TICKS = ticks == null ? null : ticks.reader;
        NANOS_PER_TICK = ticks == null ? 1.0 : 1e9 / ticks.frequency;
        DESCRIPTION = ticks == null
                ? "System.nanoTime() (--add-exports jdk.jfr/jdk.jfr.internal=ALL-UNNAMED lets TF read"
                        + " JFR's faster tick counter)"
                : "JFR's tick counter, " + ticks.frequency + " ticks per second";
    }

    private TimingClock() {
    }

    /** The current time, in the clock's own unit: the difference of two is a duration for {@link #toNanos}. */
    public static long now() {
        // A constant of one class: C2 inlines its read, which is the counter's intrinsic.
        TickReader ticks = TICKS;
        return ticks == null ? System.nanoTime() : ticks.read();
    }

    /** A duration in the clock's unit (the difference of two {@link #now()}), in nanoseconds. */
    public static long toNanos(long duration) {
        if (TICKS == null) {
            return duration;
        }
        return (long) (duration * NANOS_PER_TICK);
    }

    /** Reads a tick counter; the one implementation calls JFR's ({@link TickReaders}). */
    interface TickReader {
        /** The counter's value now. */
        long read();

        /**
         * The counter's frequency, where the JDK declares {@code getTicksFrequency()} static
         * (JDK 25); elsewhere {@code IncompatibleClassChangeError}.
         */
        long ticksPerSecond();

        /** The counter's frequency, where {@code getTicksFrequency()} is a method of the singleton (JDK 17). */
        long ticksPerSecondOfSingleton();
    }

    /** JFR's tick counter and its frequency, if this JVM has them and lets TF call them. */
    static final class JfrTicks {
        final TickReader reader;
        final long frequency;

        private JfrTicks(TickReader reader, long frequency) {
            this.reader = reader;
            this.frequency = frequency;
        }

        /** Null when JFR is absent, its package is not exported to TF, or anything looks wrong. */
        static JfrTicks find() {
            try {
                TickReader reader = TickReaders.jfrCounter();
                // The first call fails with IllegalAccessError unless jdk.jfr.internal is exported
                // to us, before anything of JFR's class runs.
                long frequency = frequency(reader);
                long first = reader.read();
                long second = reader.read();
                if (frequency <= 0 || second < first) {
                    return null;
                }
                return new JfrTicks(reader, frequency);
            } catch (Throwable e) {
                // Not exported, no jdk.jfr module, a JDK whose JVM class differs, natives that
                // fail to link: all mean "use System.nanoTime()". Nothing to report per call.
                return null;
            }
        }

        /** {@code getTicksFrequency()} is static in JDK 25, a method of the singleton in JDK 17. */
        private static long frequency(TickReader reader) {
            try {
                return reader.ticksPerSecond();
            } catch (IncompatibleClassChangeError notStatic) {
                return reader.ticksPerSecondOfSingleton();
            }
        }
    }
}
