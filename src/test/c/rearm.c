/* rearm: what arming a timer costs a thread on this guest, by whether the timer becomes its CPU's first to expire.
 * hrtimer_start_range_ns() (kernel/time/hrtimer.c) calls hrtimer_reprogram() only for a new first timer, and on a
 * KVM guest programming the timer is a TSC-deadline MSR write, an exit to the host. Pinned to CPU 1, a running thread
 * re-arms one timerfd 50 times in a row with an absolute expiry 0.8-1 ms away, earlier or later at each call (the
 * CPU's first timer unless the next tick, every 4 ms at HZ 250, comes sooner: about three calls in four), or 10 s away
 * (behind the tick: never a reprogram); the batch ends (0.2 ms) before any expiry, so no timer fires inside it, and
 * the timer is disarmed between batches. 4 000 batches each; prints the mean cost of a call, ns, and how many batches
 * outlived a deadline (an expiry's interrupt inside the batch: should be 0).
 * Build: gcc -O2 -o rearm rearm.c */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/timerfd.h>
#include <time.h>
static double now_ns(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e9 + t.tv_nsec; }
static struct timespec ts(double ns) { struct timespec t = {(time_t)(ns / 1e9), (long)((long long)ns % 1000000000LL)}; return t; }
int main(void) {
    cpu_set_t s; CPU_ZERO(&s); CPU_SET(1, &s); sched_setaffinity(0, sizeof s, &s);
    int fd = timerfd_create(CLOCK_MONOTONIC, 0);
    enum { CALLS = 50, BATCHES = 4000 };
    double sum[3] = {0}; long late[3] = {0};
    for (int b = 0; b < BATCHES; b++) {
        for (int mode = 0; mode < 3; mode++) {
            double start = now_ns(), t0 = start;
            for (long i = 0; i < CALLS; i++) {
                double d = mode == 0 ? start + 1e6 - i * 2000.0 : mode == 1 ? start + 0.8e6 + i * 2000.0 : start + 10e9 + i * 1000.0;
                struct itimerspec it = {{0, 0}, ts(d)};
                timerfd_settime(fd, TFD_TIMER_ABSTIME, &it, NULL);
            }
            double t1 = now_ns();
            sum[mode] += (t1 - t0) / CALLS;
            if (mode < 2 && t1 > start + 0.8e6) late[mode]++;
            struct itimerspec off = {{0, 0}, {0, 0}}; timerfd_settime(fd, 0, &off, NULL);
        }
    }
    printf("earlier each call %.0f ns, later each call %.0f ns, behind the tick %.0f ns; batches that outlived a deadline %ld %ld\n",
           sum[0] / BATCHES, sum[1] / BATCHES, sum[2] / BATCHES, late[0], late[1]);
    return 0;
}
