package com.example;

/** Test code with a monitored method of its own (no test framework needed to build it). */
@Probe
public class ProbedStream {
    @Probe
    public long roundTrip(long value) {
        IOStream stream = new IOStream();
        stream.writeLong(value);
        return stream.readLong();
    }
}
