/*
 * irqgaps: the time a computing thread loses to interrupts and to whatever else the CPU does between two of its
 * instructions (scripts/measure-latency.py, "machine noise"). Pinned to one CPU, it reads CLOCK_MONOTONIC (vDSO)
 * in a loop for SECONDS and counts every step longer than GAP_NS as time taken from it.
 *
 * usage: irqgaps CPU SECONDS GAP_NS   prints one JSON object: gaps per second, share of time, and a histogram
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000LL + t.tv_nsec;
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: irqgaps CPU SECONDS GAP_NS\n");
        return 2;
    }
    int cpu = atoi(argv[1]);
    double secs = atof(argv[2]);
    int64_t gap = atol(argv[3]);
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    sched_setaffinity(0, sizeof set, &set);
    /* upper bounds of the histogram's bins, ns */
    static const int64_t LIM[] = {2000, 5000, 10000, 20000, 50000, 100000, 1000000, INT64_MAX};
    enum { BINS = sizeof LIM / sizeof LIM[0] };
    long count[BINS] = {0};
    int64_t sum[BINS] = {0};
    int64_t t0 = now_ns(), prev = t0, end = t0 + (int64_t)(secs * 1e9);
    while (prev < end) {
        int64_t now = now_ns(), d = now - prev;
        if (d > gap) {
            int k = 0;
            while (d > LIM[k]) {
                k++;
            }
            count[k]++;
            sum[k] += d;
        }
        prev = now;
    }
    long n = 0;
    int64_t total = 0;
    for (int k = 0; k < BINS; k++) {
        n += count[k];
        total += sum[k];
    }
    double span = (double)(prev - t0);
    printf("{\"cpu\":%d,\"seconds\":%.3f,\"gapNs\":%lld,\"gapsPerSec\":%.1f,\"pctOfTime\":%.4f,\"meanUs\":%.2f,\"bins\":[",
           cpu, span / 1e9, (long long)gap, n / (span / 1e9), 100.0 * total / span, n ? total / 1e3 / n : 0.0);
    for (int k = 0; k < BINS; k++) {
        printf("%s{\"upToUs\":%.0f,\"count\":%ld,\"pctOfTime\":%.4f}", k ? "," : "",
               LIM[k] == INT64_MAX ? -1.0 : LIM[k] / 1e3, count[k], 100.0 * sum[k] / span);
    }
    printf("]}\n");
    return 0;
}
