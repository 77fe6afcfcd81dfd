/* selfsig: what a signal a thread sends itself costs it (raise(), the handler, sigreturn; no interrupt, no timer),
 * the part of timercost.c's per-expiry figure that is the signal's. The thread is pinned to CPU 1 and counts its
 * work as latbench does (vDSO clock steps under 2 us); mode 1 raises SIGUSR1 every EVERY_US, mode 0 is the control.
 * usage: selfsig SECONDS EVERY_US MODE   (lost per signal = (lostMs(mode 1) - lostMs(mode 0)) / signals)
 * Build: gcc -O2 -o selfsig selfsig.c */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static volatile long handled;
static void on_sig(int s) { (void)s; handled++; }
static double now_ns(clockid_t c) { struct timespec t; clock_gettime(c, &t); return t.tv_sec * 1e9 + t.tv_nsec; }
int main(int argc, char **argv) {
    if (argc < 4) { fprintf(stderr, "usage: selfsig SECONDS EVERY_US MODE\n"); return 2; }
    double seconds = atof(argv[1]); long every_us = atol(argv[2]); int mode = atoi(argv[3]); /* 0 none, 1 raise */
    cpu_set_t s; CPU_ZERO(&s); CPU_SET(1, &s); sched_setaffinity(0, sizeof s, &s);
    struct sigaction sa; memset(&sa, 0, sizeof sa); sa.sa_handler = on_sig; sigaction(SIGUSR1, &sa, NULL);
    double start = now_ns(CLOCK_MONOTONIC), c0 = now_ns(CLOCK_THREAD_CPUTIME_ID), last = start, work = 0, next = start;
    long sent = 0;
    for (;;) {
        double t = now_ns(CLOCK_MONOTONIC);
        if (t - last < 2000) work += t - last;
        last = t;
        if (mode && t >= next) { raise(SIGUSR1); sent++; next += every_us * 1000.0; last = now_ns(CLOCK_MONOTONIC); }
        if (t - start > seconds * 1e9) break;
    }
    double lost = (now_ns(CLOCK_THREAD_CPUTIME_ID) - c0) / 1e6 - work / 1e6;
    printf("{\"mode\": %d, \"signals\": %ld, \"lostMs\": %.3f, \"usPerSignal\": %.2f}\n", mode, sent, lost, sent ? 1000 * lost / sent : 0);
    return 0;
}
