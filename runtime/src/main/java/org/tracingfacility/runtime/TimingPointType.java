package org.tracingfacility.runtime;

/** What an info point means to timing: the start of an interval, its end, or neither. */
public enum TimingPointType {
    ENTER,
    EXIT,
    NONE
}
