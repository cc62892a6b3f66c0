package org.tracingfacility.runtime;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * Finds a monitor factory by the name that {@code -Dtf.monitor=Group=name} or the management
 * bean gives, in this order:
 * <ol>
 *   <li>a built-in name ({@link MethodMonitorFactoryDefaults#byName}, case-insensitive);
 *   <li>the {@link MethodMonitorFactoryProvider} of that exact {@code name()}, found with
 *       {@link ServiceLoader} in the application's class loader;
 *   <li>the fully qualified name of a public {@link MethodMonitorFactory} class with a public
 *       no-argument constructor.
 * </ol>
 */
final class FactoryNames {
    private static final int MAX_PROVIDER_FAILURES = 32;
    private FactoryNames() {
    }

    /**
     * The factory of a name.
     *
     * @throws IllegalArgumentException naming what is known when nothing has that name, or
     *     saying why the class of that name cannot serve
     */
    static MethodMonitorFactory resolve(String name, ClassLoader loader) {
        MethodMonitorFactory builtIn = MethodMonitorFactoryDefaults.byName(name);
        if (builtIn != null) {
            return builtIn;
        }
        MethodMonitorFactoryProvider provider = providers(loader).get(name);
        if (provider != null) {
            return fromProvider(provider);
        }
        Class<?> cls;
        try {
            cls = Class.forName(name, true, loader);
        } catch (ClassNotFoundException e) {
            throw new IllegalArgumentException("unknown factory '" + name + "'; known: " + known(loader)
                    + ", or the full name of a MethodMonitorFactory class with a public no-argument constructor");
        }
        return instantiate(cls);
    }

    /** The built-in names, then the names of the providers found, as a user may type them. */
    static List<String> known(ClassLoader loader) {
        List<String> names = new ArrayList<>(MethodMonitorFactoryDefaults.names());
        names.addAll(providers(loader).keySet());
        return names;
    }

    /**
     * The providers on the class path by name; the first of a name wins, as on a class path.
     * A provider that cannot be loaded (a monitor module whose library is missing, say) is
     * reported and skipped: the others still serve.
     */
    private static Map<String, MethodMonitorFactoryProvider> providers(ClassLoader loader) {
        Map<String, MethodMonitorFactoryProvider> byName = new LinkedHashMap<>();
        Iterator<MethodMonitorFactoryProvider> found =
                ServiceLoader.load(MethodMonitorFactoryProvider.class, loader).iterator();
        // The iterator moves past a provider that fails; the bound is for one that does not.
        for (int failures = 0; failures < MAX_PROVIDER_FAILURES;) {
            try {
                if (!found.hasNext()) {
                    break;
                }
                MethodMonitorFactoryProvider provider = found.next();
                byName.putIfAbsent(provider.name(), provider);
            } catch (ServiceConfigurationError | RuntimeException | LinkageError e) {
                failures++;
                System.err.println("TF: a monitor factory provider is skipped: " + e);
            }
        }
        return byName;
    }

    private static MethodMonitorFactory fromProvider(MethodMonitorFactoryProvider provider) {
        MethodMonitorFactory factory = provider.create();
        if (factory == null) {
            throw new IllegalArgumentException("the provider of factory '" + provider.name() + "' ("
                    + provider.getClass().getName() + ") created no factory");
        }
        return factory;
    }

    private static MethodMonitorFactory instantiate(Class<?> cls) {
        String what = "factory class '" + cls.getName() + "'";
        if (!MethodMonitorFactory.class.isAssignableFrom(cls)) {
            throw new IllegalArgumentException(what + " does not implement " + MethodMonitorFactory.class.getName());
        }
        if (!Modifier.isPublic(cls.getModifiers()) || Modifier.isAbstract(cls.getModifiers())) {
            throw new IllegalArgumentException(what + " is not a public concrete class");
        }
        Constructor<?> constructor;
        try {
            constructor = cls.getConstructor();
        } catch (NoSuchMethodException e) {
            throw new IllegalArgumentException(what + " has no public no-argument constructor");
        }
        try {
            return (MethodMonitorFactory) constructor.newInstance();
        } catch (InvocationTargetException e) {
            throw new IllegalArgumentException(what + " failed in its constructor: " + e.getCause(), e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalArgumentException(what + " cannot be created: " + e, e);
        }
    }
}
