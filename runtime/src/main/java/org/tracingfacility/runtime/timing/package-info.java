/** Method and interval timing: {@link org.tracingfacility.runtime.timing.TimingFactory} and its report. */
package org.tracingfacility.runtime.timing;
