/**
 * OpenTelemetry spans for monitored methods: {@link org.tracingfacility.opentelemetry.OpenTelemetryFactory}.
 */
package org.tracingfacility.opentelemetry;
