package org.tracingfacility.it.link;

import java.net.URL;
import java.net.URLClassLoader;

/**
 * Defines every class it can find on its own path itself, even one its parent (the platform
 * loader) also has, such as a JDK module's classes: each class under test is then verified as
 * loaded from the directory, never taken from the JDK. Only {@code java.*}, which no other
 * loader may define, goes to the parent first.
 */
final class ChildFirstLoader extends URLClassLoader {
    static {
        registerAsParallelCapable();
    }

    ChildFirstLoader(URL[] path) {
        super(path, ClassLoader.getPlatformClassLoader());
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (name.startsWith("java.")) {
            return super.loadClass(name, resolve);
        }
        synchronized (getClassLoadingLock(name)) {
            Class<?> c = findLoadedClass(name);
            if (c == null) {
                try {
                    c = findClass(name);
                } catch (ClassNotFoundException notOnOwnPath) {
                    return super.loadClass(name, resolve);
                }
            }
            if (resolve) {
                resolveClass(c);
            }
            return c;
        }
    }
}
