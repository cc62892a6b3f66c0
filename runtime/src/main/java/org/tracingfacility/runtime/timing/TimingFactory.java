package org.tracingfacility.runtime.timing;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.tracingfacility.annotation.InfoMethod;
import org.tracingfacility.annotation.TracingName;
import org.tracingfacility.runtime.MethodMonitor;
import org.tracingfacility.runtime.MethodMonitorFactory;
import org.tracingfacility.runtime.MethodMonitorRegistry;
import org.tracingfacility.runtime.TimingPointType;

/**
 * Times monitored methods, like JFR's method timing but without leaving Java: per method
 * and per interval it keeps the invocations, total, mean, minimum, maximum and percentiles,
 * and {@link #report()} prints them as a table.
 *
 * <p>An interval runs, on one thread, from a call of an info method declared
 * {@code @InfoMethod(tpType = ENTER, tpName = "x")} to the next call of one declared
 * {@code tpType = EXIT} with the same {@code tpName}, in the same class.
 *
 * <p>Each thread records into its own statistics without synchronization; a report sums
 * them. Statistics survive re-registration: monitors created again for a class keep adding
 * to the same timers.
 *
 * <p>Reading the clock twice is most of the cost of timing a call. A factory created with
 * {@code sampleEvery} = N counts every invocation but measures the duration of one in N on
 * each thread; totals are then estimated from the mean of the measured ones. Intervals are
 * always measured.
 */
public final class TimingFactory implements MethodMonitorFactory {
    private final int sampleEvery;
    private final TimerTable timers = new TimerTable();
    private final List<ThreadRecorder> recorders = new ArrayList<>();
    /** Statistics of threads that have ended, by timer index. */
    private final Map<Integer, long[]> retired = new HashMap<>();
    private final ThreadLocal<ThreadRecorder> recorder = new ThreadLocal<ThreadRecorder>() {
        @Override
        protected ThreadRecorder initialValue() {
            return newRecorder();
        }
    };

    /** A factory that measures every invocation. */
    public TimingFactory() {
        this(1);
    }

    /**
     * A factory that measures one invocation in {@code sampleEvery} per thread.
     *
     * @throws IllegalArgumentException if {@code sampleEvery} is less than 1
     */
    public TimingFactory(int sampleEvery) {
        if (sampleEvery < 1) {
            throw new IllegalArgumentException("sampleEvery must be at least 1, not " + sampleEvery);
        }
        this.sampleEvery = sampleEvery;
    }

    @Override
    public MethodMonitor create(Class<?> cls) {
        List<String> names = MethodMonitorRegistry.methodNames(cls);
        Map<String, InfoMethod> infoMethods = infoMethods(cls);
        MethodLabels labels = MethodLabels.of(cls);
        int[] methodTimers = new int[names.size()];
        int[] intervalTimers = new int[names.size()];
        for (int ident = 0; ident < names.size(); ident++) {
            String name = names.get(ident);
            InfoMethod info = infoMethods.get(name);
            if (info == null) {
                methodTimers[ident] = timers.index(cls, labels.label(name), TimerTable.Kind.METHOD);
                intervalTimers[ident] = -1;
            } else {
                methodTimers[ident] = -1;
                intervalTimers[ident] = info.tpType() == TimingPointType.NONE
                        ? -1
                        : timers.index(cls, info.tpName(), TimerTable.Kind.INTERVAL);
            }
        }
        TimingMonitor.loadFastPath();
        return sampleEvery == 1
                ? new TimingMonitor(cls, this, methodTimers, intervalTimers)
                : new TimingMonitor.Sampled(cls, this, methodTimers, intervalTimers);
    }

    /** The statistics so far, slowest mean first. */
    public TimingReport report() {
        List<TimerTable.Timer> snapshot = timers.snapshot();
        List<long[]> sums = new ArrayList<>();
        for (int i = 0; i < snapshot.size(); i++) {
            sums.add(TimerRow.create());
        }
        synchronized (recorders) {
            retireEndedThreads();
            for (Map.Entry<Integer, long[]> entry : retired.entrySet()) {
                addRow(entry.getValue(), entry.getKey(), sums);
            }
            for (ThreadRecorder r : recorders) {
                long[][] rows = r.rows;
                for (int timer = 0; timer < rows.length; timer++) {
                    if (rows[timer] != null) {
                        addRow(rows[timer], timer, sums);
                    }
                }
            }
        }
        List<TimingReport.Row> rows = new ArrayList<>();
        for (int i = 0; i < snapshot.size(); i++) {
            long[] sum = sums.get(i);
            if (TimerRow.invocations(sum) > 0) {
                rows.add(TimingReport.Row.of(snapshot.get(i).displayName(), sum));
            }
        }
        return new TimingReport(rows, sampleEvery);
    }

    /** Forgets all statistics. Calls running meanwhile may still be counted. */
    public void clear() {
        synchronized (recorders) {
            retired.clear();
            for (ThreadRecorder r : recorders) {
                for (long[] row : r.rows) {
                    if (row != null) {
                        TimerRow.reset(row);
                    }
                }
            }
        }
    }

    @Override
    public String toString() {
        return sampleEvery == 1 ? "timing" : "timing(1/" + sampleEvery + ")";
    }

    /** The calling thread's recorder. */
    ThreadRecorder recorder() {
        return recorder.get();
    }

    /** Forgets the statistics of some timers. */
    void clear(int[] timerIndices) {
        synchronized (recorders) {
            for (int timer : timerIndices) {
                if (timer < 0) {
                    continue;
                }
                retired.remove(timer);
                for (ThreadRecorder r : recorders) {
                    long[][] rows = r.rows;
                    if (timer < rows.length && rows[timer] != null) {
                        TimerRow.reset(rows[timer]);
                    }
                }
            }
        }
    }

    private ThreadRecorder newRecorder() {
        ThreadRecorder created = new ThreadRecorder(Thread.currentThread(), sampleEvery);
        synchronized (recorders) {
            retireEndedThreads();
            recorders.add(created);
        }
        return created;
    }

    /** Folds the rows of ended threads into {@link #retired}, so thread churn does not grow memory. */
    private void retireEndedThreads() {
        for (Iterator<ThreadRecorder> each = recorders.iterator(); each.hasNext(); ) {
            ThreadRecorder r = each.next();
            if (r.thread.isAlive()) {
                continue;
            }
            long[][] rows = r.rows;
            for (int timer = 0; timer < rows.length; timer++) {
                if (rows[timer] != null) {
                    long[] sum = retired.get(timer);
                    if (sum == null) {
                        sum = TimerRow.create();
                        retired.put(timer, sum);
                    }
                    TimerRow.addTo(rows[timer], sum);
                }
            }
            r.retired = true;
            each.remove();
        }
    }

    private static void addRow(long[] row, int timer, List<long[]> sums) {
        if (timer < sums.size()) {
            TimerRow.addTo(row, sums.get(timer));
        }
    }

    /** The info methods of a class by tracing name, read from their annotations. */
    private static Map<String, InfoMethod> infoMethods(Class<?> cls) {
        Map<String, InfoMethod> result = new HashMap<>();
        Method[] methods;
        try {
            methods = cls.getDeclaredMethods();
        } catch (LinkageError e) {
            return result; // a signature names a missing class: time methods, skip intervals
        }
        for (Method method : methods) {
            InfoMethod info = method.getAnnotation(InfoMethod.class);
            if (info != null) {
                TracingName tracingName = method.getAnnotation(TracingName.class);
                result.put(tracingName == null ? method.getName() : tracingName.value(), info);
            }
        }
        return result;
    }
}
