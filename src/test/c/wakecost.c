/* wakecost: what a timer wakeup onto a busy CPU costs the busy thread, when the woken thread preempts it (SCHED_OTHER)
 * and when it cannot (SCHED_IDLE: check_preempt_wakeup_fair() never lets an idle-policy task preempt a normal one).
 * Busy threads on CPU 0 and CPU 1 count their work as latbench does (vDSO clock steps under 2 us); a sleeper on CPU 1
 * sleeps SLEEP_US, then runs RUN_US of work, repeatedly. Per sleeper cycle: (CPU time - work) of the CPU 1 busy thread
 * minus the CPU 0 one's, and the sleeper's own CPU a cycle.
 * usage: wakecost SECONDS SLEEP_US RUN_US POLICY (0 SCHED_OTHER, 5 SCHED_IDLE) */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double seconds; static long sleep_us, run_us; static int policy;
static volatile int stop;
struct res { double work_ms, cpu_ms; long cycles; };
static double now_ns(clockid_t c) { struct timespec t; clock_gettime(c, &t); return t.tv_sec * 1e9 + t.tv_nsec; }
static void pin(int cpu) { cpu_set_t s; CPU_ZERO(&s); CPU_SET(cpu, &s); pthread_setaffinity_np(pthread_self(), sizeof s, &s); }

static void *busy(void *arg) {
    pin((int)(long)arg);
    double c0 = now_ns(CLOCK_THREAD_CPUTIME_ID), last = now_ns(CLOCK_MONOTONIC), work = 0;
    while (!stop) { double t = now_ns(CLOCK_MONOTONIC); if (t - last < 2000) work += t - last; last = t; }
    struct res *r = calloc(1, sizeof *r);
    r->work_ms = work / 1e6; r->cpu_ms = (now_ns(CLOCK_THREAD_CPUTIME_ID) - c0) / 1e6; return r;
}

static void *sleeper(void *arg) {
    (void)arg; pin(1);
    struct sched_param sp = {0};
    if (policy) sched_setscheduler(0, policy, &sp);
    double c0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
    struct res *r = calloc(1, sizeof *r);
    struct timespec ts = {sleep_us / 1000000, (sleep_us % 1000000) * 1000};
    while (!stop) {
        clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
        double last = now_ns(CLOCK_MONOTONIC), work = 0;
        while (work < run_us * 1000.0) { double t = now_ns(CLOCK_MONOTONIC); if (t - last < 2000) work += t - last; last = t; }
        r->cycles++;
    }
    r->cpu_ms = (now_ns(CLOCK_THREAD_CPUTIME_ID) - c0) / 1e6; return r;
}

int main(int argc, char **argv) {
    if (argc < 5) { fprintf(stderr, "usage: wakecost SECONDS SLEEP_US RUN_US POLICY\n"); return 2; }
    seconds = atof(argv[1]); sleep_us = atol(argv[2]); run_us = atol(argv[3]); policy = atoi(argv[4]);
    pthread_t b0, b1, s;
    pthread_create(&b0, NULL, busy, (void *)0L); pthread_create(&b1, NULL, busy, (void *)1L);
    pthread_create(&s, NULL, sleeper, NULL);
    struct timespec d = {(long)seconds, 0}; nanosleep(&d, NULL); stop = 1;
    struct res *r0, *r1, *rs;
    pthread_join(b0, (void **)&r0); pthread_join(b1, (void **)&r1); pthread_join(s, (void **)&rs);
    printf("{\"policy\": %d, \"cycles\": %ld, \"busyLostUsPerCycle\": %.2f, \"sleeperCpuUsPerCycle\": %.2f}\n", policy,
           rs->cycles, 1000 * ((r1->cpu_ms - r1->work_ms) - (r0->cpu_ms - r0->work_ms)) / (rs->cycles ? rs->cycles : 1),
           1000 * rs->cpu_ms / (rs->cycles ? rs->cycles : 1));
    return 0;
}
