/* rearm: what arming a timer costs a thread on this guest, by whether the timer becomes its CPU's first to expire.
 * hrtimer_start_range_ns() (kernel/time/hrtimer.c) calls hrtimer_reprogram() only for a new first timer, and on a
 * KVM guest programming the timer is a TSC-deadline MSR write, an exit to the host. Pinned to CPU 1, a running thread
 * re-arms one timerfd 500 times in a row, with an absolute expiry 1-2 ms away (before the next tick at HZ 250: the
 * first timer) earlier or later at each call, or 10 s away (behind the tick: no reprogram); 400 batches each.
 * Prints the mean cost of a call, ns.
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
    long calls = 500;
    double sum[3] = {0}; for (int round = 0; round < 400; round++) {
        for (int mode = 0; mode < 3; mode++) {
            double start = now_ns();
            double t0 = now_ns();
            for (long i = 0; i < calls; i++) {
                double d = mode == 0 ? start + 2e6 - i * 2000.0     /* earlier each time: reprogram */
                         : mode == 1 ? start + 1e6 + i * 2000.0     /* later each time: first, no reprogram */
                                     : start + 10e9 + i * 1000.0;     /* behind the tick */
                struct itimerspec it = {{0, 0}, ts(d)};
                timerfd_settime(fd, TFD_TIMER_ABSTIME, &it, NULL);
            }
            sum[mode] += (now_ns() - t0) / calls;
        }
    }
    printf("earlier each call (reprograms) %.0f ns, later each call %.0f ns, behind the tick %.0f ns\n", sum[0] / 400, sum[1] / 400, sum[2] / 400);
    struct itimerspec off = {{0, 0}, {0, 0}}; timerfd_settime(fd, 0, &off, NULL);
    return 0;
}
