/*
 * irqgaps: the time a computing thread loses to interrupts and to whatever else the CPU does between two of its
 * instructions (scripts/measure-latency.py, "machine noise"). Pinned to one CPU, it reads CLOCK_MONOTONIC (vDSO)
 * in a loop for SECONDS and counts every step longer than GAP_NS as time taken from it.
 *
 * usage: irqgaps CPU SECONDS GAP_NS [LIST_NS]   prints one JSON object: gaps per second, share of time, and a
 * histogram; with LIST_NS also every gap longer than that, as [CLOCK_MONOTONIC start ns, length ns] (at most 20 000),
 * so that a trace of the same seconds can tell a gap the guest spent elsewhere (a switch away from this thread) from
 * one the host took (scripts/measure-latency.py, hostStalls)
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
    int64_t list_ns = argc > 4 ? atol(argv[4]) : INT64_MAX;
    enum { MAX_LIST = 20000 };
    static int64_t list[MAX_LIST][2];
    int nlist = 0;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    sched_setaffinity(0, sizeof set, &set);
    /* upper bounds of the histogram's bins, ns */
    /* (the bins above 50 µs are finer: there the gaps are the host's, a vCPU preempted by its host, not the
     * guest's interrupts; docs/latency-validation.md, "Host stalls") */
    static const int64_t LIM[] = {2000, 5000, 10000, 20000, 50000, 100000, 200000, 500000, 1000000, 2000000,
                                  5000000, 10000000, INT64_MAX};
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
            if (d > list_ns && nlist < MAX_LIST) {
                list[nlist][0] = prev;
                list[nlist][1] = d;
                nlist++;
            }
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
    printf("]");
    if (list_ns != INT64_MAX) {
        printf(",\"long\":[");
        for (int i = 0; i < nlist; i++) {
            printf("%s[%lld,%lld]", i ? "," : "", (long long)list[i][0], (long long)list[i][1]);
        }
        printf("]");
    }
    printf("}\n");
    return 0;
}
