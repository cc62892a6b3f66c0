package org.tracingfacility.it.generated;

/**
 * Where a generated method keeps its values: slots of each kind (parameters first, then
 * locals of the body, some beyond 255 so that they need {@code wide}), loop counters that
 * only loops touch, one reference slot for caught exceptions, and for {@code jsr} subroutines
 * (class versions before 50) one for the exception a finally handler holds and one for the
 * return address.
 */
final class Locals {
    final int[] ints;
    final int[] longs;
    final int[] doubles;
    /** Body locals (not parameters), set in the prologue so that every path sees them set. */
    final int[] bodyInts;
    final int[] bodyLongs;
    final int[] bodyDoubles;
    /** One counter per loop nesting level. */
    final int[] loopCounters;
    final int caught;
    final int finallyCaught;
    final int returnAddress;

    private Locals(int[] ints, int[] longs, int[] doubles, int[] bodyInts, int[] bodyLongs, int[] bodyDoubles,
            int[] loopCounters, int caught) {
        this.ints = ints;
        this.longs = longs;
        this.doubles = doubles;
        this.bodyInts = bodyInts;
        this.bodyLongs = bodyLongs;
        this.bodyDoubles = bodyDoubles;
        this.loopCounters = loopCounters;
        this.caught = caught;
        this.finallyCaught = caught + 1;
        this.returnAddress = caught + 2;
    }

    /** Only the parameters {@code (int, long, double)} from {@code first}: all a constructor may read before its chaining call. */
    static Locals parametersOnly(int first) {
        return new Locals(new int[] {first}, new int[] {first + 1}, new int[] {first + 3}, new int[0], new int[0],
                new int[0], new int[0], -1);
    }

    /**
     * The layout of a method whose parameters {@code (int, long, double)} start at {@code first}
     * (0 for a static method, 1 after {@code this}); body locals follow, the last of each kind
     * at a wide index.
     */
    static Locals after(int first) {
        int p = first;
        int bi = p + 5;
        return new Locals(new int[] {p, bi, bi + 1, 300}, new int[] {p + 1, bi + 2, 302}, new int[] {p + 3, bi + 4, 310},
                new int[] {bi, bi + 1, 300}, new int[] {bi + 2, 302}, new int[] {bi + 4, 310},
                new int[] {bi + 6, bi + 7, 320}, bi + 8);
    }
}
