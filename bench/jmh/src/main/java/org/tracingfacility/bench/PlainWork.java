package org.tracingfacility.bench;

/** The method as written: about 1 ns of dependent arithmetic (a hash finalizer). */
public class PlainWork {
    public int work(int x) {
        int h = x * 0x9E3779B1;
        h ^= h >>> 15;
        h *= 0x85EBCA77;
        return h ^ (h >>> 13);
    }
}
