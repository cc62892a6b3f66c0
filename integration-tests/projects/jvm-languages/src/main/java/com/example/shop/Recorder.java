package com.example.shop;

import java.lang.annotation.Annotation;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.tracingfacility.annotation.Filtered;
import org.tracingfacility.runtime.MethodMonitor;
import org.tracingfacility.runtime.MethodMonitorRegistry;
import org.tracingfacility.runtime.TimingPointType;

/**
 * A monitor that records what it sees, one event a line: {@code enter Class.method[args]},
 * {@code exit Class.method = result}, {@code exception …}.
 */
public final class Recorder implements MethodMonitor {
    private static final List<String> EVENTS = Collections.synchronizedList(new ArrayList<>());

    private final Class<?> cls;

    public Recorder(Class<?> cls) {
        this.cls = cls;
    }

    /**
     * Attaches a recorder to the groups Java code can see: its own, Kotlin's, and the one
     * filters put methods in. (Groovy compiles without the Kotlin classes on its class path.)
     */
    public static void attachToJavaAndKotlinGroups() {
        for (Class<? extends Annotation> group : Arrays.asList(Orders.class, Pricing.class, Filtered.class)) {
            MethodMonitorRegistry.register(group, Recorder::new);
        }
    }

    /** Every event recorded so far, in order. */
    public static List<String> events() {
        return new ArrayList<>(EVENTS);
    }

    private String name(int ident) {
        return cls.getSimpleName() + "." + MethodMonitorRegistry.methodName(cls, ident);
    }

    @Override
    public Class<?> myClass() {
        return cls;
    }

    @Override
    public void enter(int ident, Object... args) {
        EVENTS.add("enter " + name(ident) + Arrays.toString(args));
    }

    @Override
    public void info(Object[] args, int callerIdent, int selfIdent, TimingPointType tpType) {
        EVENTS.add("info " + name(selfIdent));
    }

    @Override
    public void exit(int ident) {
        EVENTS.add("exit " + name(ident));
    }

    @Override
    public void exit(int ident, Object result) {
        EVENTS.add("exit " + name(ident) + " = " + result);
    }

    @Override
    public void exception(int ident, Throwable thr) {
        EVENTS.add("exception " + name(ident) + " " + thr);
    }

    @Override
    public void clear() {}
}
