/**
 * Micrometer timers for monitored methods: {@link org.tracingfacility.micrometer.MicrometerFactory}.
 */
package org.tracingfacility.micrometer;
