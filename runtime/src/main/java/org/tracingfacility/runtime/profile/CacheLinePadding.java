package org.tracingfacility.runtime.profile;

/**
 * Puts a subclass's own fields 128 bytes into the object (two cache lines, the pair a core
 * fetches together): fields written on every call by one thread then share no line with an
 * object before them that another thread writes. Threads' objects made apart end up side by
 * side when the collector copies them out of the list that holds them all. Java lays out a
 * superclass's fields first, so inheritance is the one way to place them.
 */
abstract class CacheLinePadding {
    int p0;
    long p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11, p12, p13, p14, p15, p16;
}
