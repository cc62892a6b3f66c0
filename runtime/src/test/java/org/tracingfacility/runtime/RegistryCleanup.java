package org.tracingfacility.runtime;

import java.lang.annotation.Annotation;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/** The registry is process-wide: every test leaves it without registrations. */
final class RegistryCleanup implements AfterEachCallback {
    @Override
    public void afterEach(ExtensionContext context) {
        for (Class<? extends Annotation> group : MethodMonitorRegistry.registrations().keySet()) {
            MethodMonitorRegistry.clear(group);
        }
    }
}
