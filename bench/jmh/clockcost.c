/* What one clock read costs in C on this machine, to explain System.nanoTime() against JFR's
 * tick counter. HotSpot's nanoTime is clock_gettime(CLOCK_MONOTONIC), which the kernel's
 * vDSO answers (no system call; strace shows none) by reading the time-stamp counter behind
 * an ordering barrier (lfence or rdtscp), inside a seqlock, then scaling it. JFR's tick
 * counter is a bare rdtsc (UseFastUnorderedTimeStamps), unscaled.
 *   gcc -O2 clockcost.c -o /tmp/clockcost && /tmp/clockcost */
#include <stdio.h>
#include <time.h>
#include <x86intrin.h>

#define N 20000000L

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

int main(void) {
    unsigned long sink = 0;
    unsigned int aux;
    struct timespec t;
    double start = now();
    for (long i = 0; i < N; i++) {
        clock_gettime(CLOCK_MONOTONIC, &t);
        sink += t.tv_nsec;
    }
    printf("clock_gettime(CLOCK_MONOTONIC) %5.1f ns\n", (now() - start) / N);
    start = now();
    for (long i = 0; i < N; i++) {
        _mm_lfence();
        sink += __rdtsc();
    }
    printf("lfence; rdtsc                  %5.1f ns\n", (now() - start) / N);
    start = now();
    for (long i = 0; i < N; i++) {
        sink += __rdtscp(&aux);
    }
    printf("rdtscp                         %5.1f ns\n", (now() - start) / N);
    start = now();
    for (long i = 0; i < N; i++) {
        sink += __rdtsc();
    }
    printf("rdtsc                          %5.1f ns\n", (now() - start) / N);
    return sink == 42 ? 1 : 0; /* keeps the reads from being optimized away */
}
