package com.example;

/** Writes two values through {@link IOStream} and reads them back. */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
        IOStream stream = new IOStream();
        stream.reset();
        stream.writeInt(42);
        stream.writeLong(-7_000_000_000L);
        int first = stream.readInt();
        long second = stream.readLong();
        System.out.println("read back " + first + " and " + second);
    }
}
