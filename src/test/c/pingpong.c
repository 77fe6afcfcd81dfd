/*
 * pingpong: one cache line's transfer between this guest's two vCPUs (docs/model.md, "Seed 003's table": the
 * opt-in busiest-queue lock charges HardwareModel.lineTransferNs by distance for each line a balancer reads from
 * another CPU). Two threads pinned to CPU 0 and CPU 1 take turns writing one shared line: each waits until the
 * other's write is visible, then writes; a round trip moves the line twice. Prints, per batch of ROUNDS round trips,
 * the ns of one transfer (half a round trip), and the median and spread over BATCHES batches. A batch that the host
 * interrupts (a vCPU descheduled) shows as an outlier: read the median.
 *
 * usage: gcc -O2 -pthread -o /tmp/pingpong src/test/c/pingpong.c && /tmp/pingpong [BATCHES (31)] [ROUNDS (100000)]
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static struct { _Alignas(64) volatile uint64_t turn; } shared;
static long rounds;

static uint64_t now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000ull + t.tv_nsec;
}

static void pin(int c) {
    cpu_set_t s;
    CPU_ZERO(&s);
    CPU_SET(c, &s);
    pthread_setaffinity_np(pthread_self(), sizeof s, &s);
}

/* The second vCPU: answers each odd value with the next even one. */
static void *other(void *arg) {
    (void) arg;
    pin(1);
    for (uint64_t v = 1; v < 2 * (uint64_t) rounds; v += 2) {
        while (shared.turn != v) {
        }
        shared.turn = v + 1;
    }
    return NULL;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *) a, y = *(const double *) b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    int batches = argc > 1 ? atoi(argv[1]) : 31;
    rounds = argc > 2 ? atol(argv[2]) : 100000;
    double *ns = malloc(batches * sizeof *ns);
    pin(0);
    for (int b = 0; b < batches; b++) {
        shared.turn = 0;
        pthread_t t;
        pthread_create(&t, NULL, other, NULL);
        /* let the other thread reach its first wait on CPU 1 */
        while (shared.turn != 0) {
        }
        uint64_t t0 = now();
        for (uint64_t v = 0; v < 2 * (uint64_t) rounds; v += 2) {
            shared.turn = v + 1;
            while (shared.turn != v + 2) {
            }
        }
        uint64_t t1 = now();
        pthread_join(t, NULL);
        ns[b] = (double) (t1 - t0) / (2.0 * rounds);
    }
    qsort(ns, batches, sizeof *ns, cmp);
    printf("one line transfer between CPU 0 and CPU 1: median %.1f ns (p10 %.1f, p90 %.1f, min %.1f, max %.1f) over %d "
           "batches of %ld round trips\n", ns[batches / 2], ns[batches / 10], ns[batches * 9 / 10], ns[0],
           ns[batches - 1], batches, rounds);
    return 0;
}
