/** JDK Flight Recorder events for monitored methods: {@link org.tracingfacility.runtime.jfr.JfrFactory}. */
package org.tracingfacility.runtime.jfr;
