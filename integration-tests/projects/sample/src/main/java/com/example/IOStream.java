package com.example;

import org.tracingfacility.annotation.InfoMethod;

/**
 * The spec's example: a stream of ints and longs whose reads and writes are monitored. A
 * monitored method's TF annotation must be on its class too.
 */
@IORead
@IOWrite
@Lifecycle
public class IOStream {
    private final int[] buffer = new int[16];
    private int readPosition;
    private int writePosition;

    @IORead
    public int readInt() {
        return buffer[readPosition++];
    }

    @IORead
    public long readLong() {
        long high = readInt();
        return (high << 32) | (readInt() & 0xFFFF_FFFFL);
    }

    @IOWrite
    public void writeInt(int value) {
        buffer[writePosition++] = value;
    }

    @IOWrite
    public void writeLong(long value) {
        if (value < 0) {
            // something interesting happened in writeLong
            interestingWriteLong("An odd value", value);
        }
        writeInt((int) (value >>> 32));
        writeInt((int) value);
    }

    /** An info point: its body must stay empty, the enhancer replaces it. */
    @InfoMethod
    private void interestingWriteLong(String message, long value) {}

    @Lifecycle
    public void reset() {
        readPosition = 0;
        writePosition = 0;
    }
}
