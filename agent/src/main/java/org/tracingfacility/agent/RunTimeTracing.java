package org.tracingfacility.agent;

import java.lang.instrument.Instrumentation;
import java.lang.instrument.UnmodifiableClassException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.tracingfacility.runtime.TracingFacilityMXBean;
import org.tracingfacility.runtime.support.EnhancedCodeSupport;
import org.tracingfacility.runtime.support.RegistryBridge;
import org.tracingfacility.runtime.support.ThreadsAtWork;

/**
 * Tracing added to a running JVM and taken out again: the state that lives in the target JVM
 * from one attach to the next (the agent's classes stay loaded), and the four commands.
 * One command at a time.
 */
final class RunTimeTracing {
    /** Classes of TF itself: tracing them would have the agent and the monitors trace themselves. */
    private static final String OWN_PACKAGE = "org.tracingfacility.";

    private final Instrumentation instrumentation;
    /** The agent's tf-runtime on the boot class path, or null: the application's serves. */
    private final BootstrapRuntime runtime;
    private final TracingTransformer transformer;
    private final ShapeEnhancer enhancer;
    private final TracingFacilityMXBean control;
    /** The refusals of the last start, one line each. */
    private List<String> refusals = List.of();
    private AttachRequest started;

    RunTimeTracing(Instrumentation instrumentation, ShapeEnhancer enhancer, BootstrapRuntime runtime) {
        this.instrumentation = instrumentation;
        this.runtime = runtime;
        this.enhancer = enhancer;
        this.transformer = new TracingTransformer(enhancer);
        this.control = RegistryBridge.control(ClassLoader.getSystemClassLoader());
        instrumentation.addTransformer(transformer, true);
    }

    synchronized Reply handle(AttachRequest request) {
        // The agent's own work: no traced class reports what a start or stop runs.
        boolean recorded = ThreadsAtWork.enter();
        try {
            return handleAtWork(request);
        } finally {
            if (recorded) {
                ThreadsAtWork.leave();
            }
        }
    }

    private Reply handleAtWork(AttachRequest request) {
        switch (request.command) {
            case START:
                return start(request);
            case STOP:
                return stop();
            case STATUS:
                return status();
            case REPORT:
                return report();
            default:
                throw new IllegalStateException("unknown command " + request.command);
        }
    }

    private Reply start(AttachRequest request) {
        if (!instrumentation.isRetransformClassesSupported()) {
            return Reply.failed("TF: this JVM cannot retransform classes (the agent jar's manifest lacks "
                    + "Can-Retransform-Classes: true); nothing was started");
        }
        Set<String> monitoredGroups = new HashSet<>();
        List<String[]> monitors = new ArrayList<>();
        Set<String> groups = new LinkedHashSet<>(control.getGroups());
        groups.addAll(LoaderGroups.of(ClassLoader.getSystemClassLoader()).names);
        try {
            for (String option : request.monitors) {
                for (String entry : option.split("[,;]")) {
                    String[] groupAndFactory = groupAndFactory(entry.trim());
                    monitors.add(groupAndFactory);
                    monitoredGroups.add(groupAndFactory[0]);
                }
            }
            checkFilters(request.filters, new ArrayList<>(groups));
        } catch (IllegalArgumentException e) {
            return Reply.failed("TF: " + e.getMessage() + "; nothing was started");
        }
        AttachSelection selection = AttachSelection.of(request.filters, monitoredGroups);
        StringBuilder out = new StringBuilder();
        if (started != null) {
            out.append(stop().text);
        }
        List<String> registered = new ArrayList<>();
        for (String[] monitor : monitors) {
            try {
                control.register(monitor[0], monitor[1]);
                registered.add(monitor[0]);
            } catch (RuntimeException e) {
                registered.forEach(control::clear);
                return Reply.failed(out + "TF: monitor=" + monitor[0] + "=" + monitor[1] + ": " + e.getMessage()
                        + "; nothing was started");
            }
        }

        List<String> lines = new ArrayList<>();
        List<Class<?>> candidates = new ArrayList<>();
        // Traced, or left as it is with a line saying why: what each filter is judged by.
        List<Class<?>> selectedNow = new ArrayList<>();
        for (Class<?> cls : instrumentation.getAllLoadedClasses()) {
            if (cls.isArray() || cls.isPrimitive() || cls.getName().indexOf('/') >= 0) {
                continue; // nothing to trace; hidden classes ('/' in the name) are generated, never modifiable
            }
            List<String> tfGroups = AttachSelection.tfGroupsOf(cls);
            if (!selection.selects(cls, tfGroups)) {
                continue;
            }
            String refusal = whyNotRetransformable(cls);
            if (refusal != null) {
                lines.add("TF: " + cls.getName() + " left as it is: " + refusal);
                selectedNow.add(cls);
                continue;
            }
            groups.addAll(tfGroups);
            groups.addAll(LoaderGroups.of(cls.getClassLoader()).names);
            if (runtime != null) {
                runtime.makeReadable(cls.getModule());
            }
            candidates.add(cls);
        }
        candidates.sort(Comparator.comparing(Class::getName));
        int selected = candidates.size() + lines.size();
        transformer.begin(candidates, new ArrayList<>(groups), request.filters);
        try {
            retransformEach(candidates, lines, true);
        } finally {
            transformer.end();
        }
        int traced = 0;
        String badFilter = null;
        // Apart from the refusals: status lists these, and counts them as left as they were.
        List<String> tracedLines = new ArrayList<>();
        for (Class<?> cls : candidates) {
            TracingTransformer.Outcome outcome = transformer.outcome(cls);
            if (outcome == null) {
                continue;
            } else if (outcome.badFilter) {
                badFilter = outcome.refusal;
            } else if (outcome.refusal != null) {
                lines.add("TF: " + cls.getName() + " left as it is: " + outcome.refusal);
                selectedNow.add(cls);
            } else if (outcome.traced && transformer.isTraced(cls)) {
                traced++;
                selectedNow.add(cls);
                if (request.verbose) {
                    tracedLines.add("TF: traced " + cls.getName());
                }
            } else if (outcome.traced) {
                selectedNow.add(cls); // the JVM refused its traced bytes: retransformEach said so
            }
        }
        if (badFilter != null) {
            List<String> undo = new ArrayList<>();
            retransformEach(transformer.forgetAll(), undo, false);
            registered.forEach(control::clear);
            return Reply.failed(out + "TF: " + badFilter + "; nothing was started");
        }
        started = request;
        refusals = List.copyOf(lines);
        transformer.traceLoading(request.filters, runtime);
        tracedLines.forEach(l -> out.append(l).append('\n'));
        lines.forEach(l -> out.append(l).append('\n'));
        for (String filter : request.filters) {
            if (!selectsAnyOf(filter, selectedNow)) {
                out.append("TF: filter '").append(filter).append("' selected no method of a loaded class;"
                        + " a class it selects that loads later is traced as it loads\n");
            }
        }
        out.append("TF: tracing ").append(traced).append(traced == 1 ? " class" : " classes")
                .append(" (").append(selected).append(" selected, ").append(refusals.size())
                .append(" left as they were)\n");
        // Started either way (classes loading later are traced), but a script must be able to
        // tell that nothing is traced yet, most often a filter's typo.
        return traced == 0 ? new Reply(Reply.NOTHING_TRACED, out.toString()) : Reply.ok(out.toString());
    }

    /**
     * Whether {@code filter} alone would have picked one of {@code selected} (traced, or left as
     * it is with a line). The core does not say which filter chose a method, so a filter naming
     * a class that another filter traced counts as selecting it.
     */
    private static boolean selectsAnyOf(String filter, List<Class<?>> selected) {
        AttachSelection alone = AttachSelection.of(List.of(filter), Set.of());
        for (Class<?> cls : selected) {
            if (alone.selects(cls, List.of())) {
                return true;
            }
        }
        return false;
    }

    private Reply stop() {
        if (started == null) {
            return Reply.ok("TF: nothing is traced\n");
        }
        List<Class<?>> classes = transformer.forgetAll();
        for (Class<?> loaded : instrumentation.getAllLoadedClasses()) {
            if (transformer.tracedAsItLoaded(loaded) && !classes.contains(loaded)) {
                classes.add(loaded);
            }
        }
        transformer.stopLoading();
        List<String> lines = new ArrayList<>();
        retransformEach(classes, lines, false);
        started = null;
        refusals = List.of();
        StringBuilder out = new StringBuilder();
        lines.forEach(l -> out.append(l).append('\n'));
        out.append("TF: stopped tracing ").append(classes.size()).append(classes.size() == 1 ? " class" : " classes")
                .append("; their code is as it was before start\n");
        return lines.isEmpty() ? Reply.ok(out.toString()) : Reply.failed(out.toString());
    }

    private Reply status() {
        StringBuilder out = new StringBuilder();
        List<String> names = new ArrayList<>();
        for (Class<?> cls : transformer.tracedClasses()) {
            names.add(cls.getName());
        }
        names.sort(null);
        if (started == null) {
            out.append("TF: nothing is traced\n");
        } else {
            out.append("TF: tracing ").append(names.size()).append(names.size() == 1 ? " class" : " classes")
                    .append(" since start ").append(String.join(" ", started.lines().subList(1, started.lines().size())))
                    .append('\n');
            names.forEach(n -> out.append("  ").append(n).append('\n'));
            int loadedLater = transformer.tracedAsTheyLoaded();
            if (loadedLater > 0) {
                out.append("TF: and ").append(loadedLater).append(loadedLater == 1 ? " class" : " classes")
                        .append(" traced as they loaded since start\n");
            }
            refusals.forEach(r -> out.append(r).append('\n'));
        }
        for (Map.Entry<String, String> e : control.getRegistrations().entrySet()) {
            out.append("TF: monitor ").append(e.getKey()).append(" = ").append(e.getValue()).append('\n');
        }
        return Reply.ok(out.toString());
    }

    private Reply report() {
        String table = control.getTimingReport();
        StringBuilder out = new StringBuilder();
        for (Map.Entry<String, String> e : control.getRegistrations().entrySet()) {
            out.append("TF: monitor ").append(e.getKey()).append(" = ").append(e.getValue()).append('\n');
        }
        out.append(table.isEmpty() ? "TF: the timing monitor holds nothing\n" : table);
        return Reply.ok(out.toString());
    }

    /**
     * Retransforms the classes, all at once and, if the JVM refuses that, one by one, so that
     * one class the JVM refuses leaves only itself as it was. Each refusal is a line.
     */
    private void retransformEach(List<Class<?>> classes, List<String> lines, boolean starting) {
        if (classes.isEmpty()) {
            return;
        }
        try {
            instrumentation.retransformClasses(classes.toArray(new Class<?>[0]));
            return;
        } catch (UnmodifiableClassException | RuntimeException | LinkageError e) {
            // All or nothing: retry each, so that only the classes the JVM refuses stay as they were.
        }
        for (Class<?> cls : classes) {
            try {
                instrumentation.retransformClasses(cls);
            } catch (UnmodifiableClassException | RuntimeException | LinkageError e) {
                if (starting) {
                    transformer.refused(cls);
                    lines.add("TF: " + cls.getName() + " left as it is: the JVM refused the traced class: " + e);
                } else {
                    lines.add("TF: " + cls.getName() + " could not be restored: " + e);
                }
            }
        }
    }

    /**
     * Has the core judge the filters once, on a class of the agent, so that a bad filter stops
     * the start with the core's message before any class is touched.
     *
     * @throws IllegalArgumentException with the core's message
     */
    private void checkFilters(List<String> filters, List<String> groups) {
        if (filters.isEmpty()) {
            return;
        }
        String resource = RunTimeTracing.class.getName().replace('.', '/') + ".class";
        byte[] bytes;
        try (java.io.InputStream in = RunTimeTracing.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("cannot read " + resource + " from the agent jar");
            }
            bytes = in.readAllBytes();
        } catch (java.io.IOException e) {
            throw new IllegalStateException("cannot read " + resource + " from the agent jar: " + e, e);
        }
        try {
            enhancer.guarded(RunTimeTracing.class.getName(), bytes, List.of(), groups, filters);
        } catch (ShapeEnhancer.Refusal e) {
            if (e.badFilter) {
                throw new IllegalArgumentException(e.getMessage());
            }
        }
    }

    /** Why {@code cls} cannot be traced in this JVM, or null. */
    private String whyNotRetransformable(Class<?> cls) {
        if (cls.getName().startsWith(OWN_PACKAGE)) {
            return "a class of TF itself (the agent and the monitors would trace their own work)";
        }
        String refused = RefusedClasses.reason(cls.getName());
        if (refused != null) {
            return refused;
        }
        if (!instrumentation.isModifiableClass(cls)) {
            return "the JVM does not allow changing it (a hidden or VM-internal class)";
        }
        try {
            Class<?> seen = Class.forName(EnhancedCodeSupport.class.getName(), false, cls.getClassLoader());
            if (seen != EnhancedCodeSupport.class) {
                return "its class loader sees another copy of tf-runtime than the agent's";
            }
            if (runtime != null) {
                runtime.resolveAhead(cls.getClassLoader());
            }
        } catch (ClassNotFoundException | LinkageError e) {
            return "its class loader (" + cls.getClassLoader() + ") does not see tf-runtime, which the traced code calls";
        }
        return null;
    }

    private static String[] groupAndFactory(String entry) {
        int equals = entry.indexOf('=');
        if (equals <= 0 || equals == entry.length() - 1) {
            throw new IllegalArgumentException("monitor=" + entry + " is not Group=factory");
        }
        return new String[] {entry.substring(0, equals).trim(), entry.substring(equals + 1).trim()};
    }
}
