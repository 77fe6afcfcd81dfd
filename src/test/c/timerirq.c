/*
 * timerirq: what a timer's interrupt takes from the thread it interrupts when the expiry wakes no task
 * (docs/latency-validation.md, "A fresh boot, its costs by the script"). Pinned to CPU, a thread reads
 * CLOCK_MONOTONIC (vDSO) in a loop and counts every step longer than 1 µs as time taken from it. Phases of 500
 * runs alternate: without a timer, and with a timerfd on the same CPU armed at each run's start to expire in its
 * middle (nobody reads it before the run ends, so hrtimer_interrupt() runs timerfd_tmrproc() and wakes no task).
 * A run is RUN_US of the loop's own time (steps of 1 µs or less); between runs the thread sleeps SLEEP_US
 * (clock_nanosleep, as latbench's periodic threads), or not at all (SLEEP_US 0: a busy thread). The arming system
 * call is left out of the count. Without IRQ_TIME_ACCOUNTING the kernel charges the interrupt to this thread:
 * (lost with the timer - lost without) / expiries is what an expiry costs the thread it interrupts.
 *
 * usage: timerirq CPU SECONDS RUN_US SLEEP_US          Build: gcc -O2 -o timerirq timerirq.c
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

static int64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000LL + t.tv_nsec;
}

int main(int argc, char **argv) {
    if (argc < 5) {
        fprintf(stderr, "usage: timerirq CPU SECONDS RUN_US SLEEP_US\n");
        return 2;
    }
    int cpu = atoi(argv[1]);
    double secs = atof(argv[2]);
    long run_us = atol(argv[3]), sleep_us = atol(argv[4]);
    cpu_set_t s;
    CPU_ZERO(&s);
    CPU_SET(cpu, &s);
    sched_setaffinity(0, sizeof s, &s);
    int fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK);
    double lost[2] = {0};
    long runs[2] = {0}, expiries = 0;
    int64_t end = now_ns() + (int64_t)(secs * 1e9);
    for (long i = 0; now_ns() < end; i++) {
        int timed = (i / 500) % 2;
        int64_t t0 = now_ns(), prev = t0, l = 0;
        if (timed) {
            int64_t at = t0 + run_us * 500;
            struct itimerspec it = {{0, 0}, {at / 1000000000LL, at % 1000000000LL}};
            timerfd_settime(fd, TFD_TIMER_ABSTIME, &it, NULL);
            prev = now_ns(); /* the arming call is not the interrupt's */
        }
        int64_t stop = prev + run_us * 1000;
        while (prev < stop) {
            int64_t x = now_ns(), d = x - prev;
            if (d > 1000) {
                l += d;
                stop += d;
            }
            prev = x;
        }
        if (timed) {
            uint64_t n;
            if (read(fd, &n, sizeof n) == sizeof n) {
                expiries += (long)n;
            }
        }
        lost[timed] += l;
        runs[timed]++;
        if (sleep_us > 0) {
            struct timespec ts = {sleep_us / 1000000, (sleep_us % 1000000) * 1000};
            clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
        }
    }
    double quiet = lost[0] / runs[0];
    printf("{\"cpu\": %d, \"runUs\": %ld, \"sleepUs\": %ld, \"runs\": %ld, \"expiries\": %ld, "
           "\"lostUsPerRunWithout\": %.2f, \"lostUsPerRunWith\": %.2f, \"usPerExpiry\": %.2f}\n",
           cpu, run_us, sleep_us, runs[0] + runs[1], expiries, quiet / 1000, lost[1] / runs[1] / 1000,
           (lost[1] - quiet * runs[1]) / expiries / 1000);
    return 0;
}
