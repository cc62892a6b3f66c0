package org.tracingfacility.opentelemetry.orders;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.tracingfacility.annotation.MethodMonitorGroup;

/** The order service's calls. */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
@MethodMonitorGroup
public @interface Orders {
}
