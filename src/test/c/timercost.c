/* timercost: what a timer's expiry on a busy CPU costs the thread it interrupts, when it wakes no task.
 * Two busy threads, pinned to CPU 0 and CPU 1, count their work as latbench does (steps of the vDSO clock under
 * 2 us); an ITIMER_REAL of PERIOD_US is armed by the CPU 1 thread, and its SIGALRM is handled by that thread only
 * (blocked in the others): each expiry is the hrtimer interrupt on CPU 1, the itimer's re-arm when the signal is
 * dequeued, and the signal's delivery and return, on the running thread, waking nobody — an upper bound on the
 * interrupt alone. (An unread timerfd or an ignored SIGALRM is no probe: neither timer is re-armed.) Per expiry:
 * (CPU time - work) of the CPU 1 thread minus the same of the CPU 0 thread in the same seconds.
 * usage: timercost SECONDS PERIOD_US [CPU (1)]   (PERIOD_US 0: no timer)
 * Build: gcc -O2 -pthread -o timercost timercost.c */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static double seconds;
static long period_us;
static int timer_cpu = 1;

static volatile long handled;
static void on_alrm(int sig) { (void)sig; handled++; }

struct res { double work_ms, cpu_ms; long expiries; };

static double now_ns(clockid_t c) { struct timespec t; clock_gettime(c, &t); return t.tv_sec * 1e9 + t.tv_nsec; }

static void *busy(void *arg) {
    int cpu = (int)(long)arg;
    cpu_set_t s; CPU_ZERO(&s); CPU_SET(cpu, &s);
    pthread_setaffinity_np(pthread_self(), sizeof s, &s);
    sigset_t alrm; sigemptyset(&alrm); sigaddset(&alrm, SIGALRM);
    if (cpu == timer_cpu && period_us > 0) {
        /* ITIMER_REAL is re-armed when its SIGALRM is dequeued: a handled SIGALRM on this (running) thread, so each
         * expiry is the hrtimer interrupt plus a signal's delivery and return, and wakes nobody (an upper bound) */
        pthread_sigmask(SIG_UNBLOCK, &alrm, NULL);
        struct itimerval it = {{period_us / 1000000, period_us % 1000000}, {period_us / 1000000, period_us % 1000000}};
        setitimer(ITIMER_REAL, &it, NULL);
    }
    double start = now_ns(CLOCK_MONOTONIC), c0 = now_ns(CLOCK_THREAD_CPUTIME_ID), last = start, work = 0;
    for (;;) {
        double t = now_ns(CLOCK_MONOTONIC);
        if (t - last < 2000) work += t - last;
        last = t;
        if (t - start > seconds * 1e9) break;
    }
    struct res *r = calloc(1, sizeof *r);
    r->work_ms = work / 1e6;
    r->cpu_ms = (now_ns(CLOCK_THREAD_CPUTIME_ID) - c0) / 1e6;
    if (cpu == timer_cpu && period_us > 0) { struct itimerval off = {{0, 0}, {0, 0}}; setitimer(ITIMER_REAL, &off, NULL); r->expiries = handled; }
    return r;
}

int main(int argc, char **argv) {
    struct sigaction sa; memset(&sa, 0, sizeof sa); sa.sa_handler = on_alrm; sa.sa_flags = SA_RESTART;
    sigaction(SIGALRM, &sa, NULL);
    sigset_t alrm; sigemptyset(&alrm); sigaddset(&alrm, SIGALRM);
    pthread_sigmask(SIG_BLOCK, &alrm, NULL); /* threads inherit it; the timer's thread unblocks it */
    seconds = argc > 1 ? atof(argv[1]) : 3;
    period_us = argc > 2 ? atol(argv[2]) : 1000;
    timer_cpu = argc > 3 ? atoi(argv[3]) : 1;
    pthread_t t[2];
    for (long c = 0; c < 2; c++) pthread_create(&t[c], NULL, busy, (void *)c);
    struct res *r[2];
    for (int c = 0; c < 2; c++) pthread_join(t[c], (void **)&r[c]);
    struct res *a = r[timer_cpu], *b = r[1 - timer_cpu];
    double lost_a = a->cpu_ms - a->work_ms, lost_b = b->cpu_ms - b->work_ms;
    printf("{\"periodUs\": %ld, \"expiries\": %ld, \"lostMsWith\": %.3f, \"lostMsWithout\": %.3f, \"usPerExpiry\": %.2f}\n",
           period_us, a->expiries, lost_a, lost_b, a->expiries ? 1000 * (lost_a - lost_b) / a->expiries : 0.0);
    return 0;
}
