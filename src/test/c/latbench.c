/*
 * latbench: the real-kernel side of SchedSim's latency and placement cases (scripts/measure-latency.py).
 *
 * Starts groups of threads, lets them run for DURATION_MS, then prints one JSON line per thread: what it did
 * (cycles, transactions), its own counters from /proc/self/task/TID/sched (CPU time, context switches,
 * migrations) and the CLOCK_MONOTONIC times at which each of its sleeps or blocking reads returned, which the
 * script matches with the sched_waking events of a tracefs trace taken at the same time (trace_clock mono).
 *
 * usage: latbench DURATION_MS GROUP...
 *   GROUP is KIND,COUNT[,ARG...][,cpu=C][,nice=N][,cg=DIR]
 *     periodic,N,RUN_US,SLEEP_US   run RUN_US of own CPU time, then sleep SLEEP_US (like usleep()), repeat
 *     busy,N                       run without end (its units: ms of its own work, so CPU time minus units is
 *                                  what others' interrupts and switches cost it)
 *     pingpong,P,SERVICE_US,THINK_US  P client/server pairs over pipes: the client runs THINK_US, writes a byte
 *                                  and reads the answer; the server reads, runs SERVICE_US and answers
 *     hackbench,G,FDS,LOOPS,MSG_US G groups of FDS senders and FDS receivers over pipes: each sender writes
 *                                  LOOPS messages to every receiver of its group (MSG_US of CPU per message on
 *                                  each side), then exits; receivers exit when all their messages arrived
 *   cpu=C pins the group's threads to CPU C, nice=N sets their nice value, cg=DIR moves them into the cgroup v1
 *   directory DIR (its tasks file); peer=C pins a pingpong group's servers to CPU C instead (its clients stay on
 *   cpu=), so that every wakeup crosses between the two CPUs; clock=thread makes a periodic group's runs last
 *   RUN_US of the thread's own CPU clock, read with clock_gettime(CLOCK_THREAD_CPUTIME_ID) between short loops
 *   as shared/validation/realkernel's spin.c does (a system call per read, each running update_curr(); the
 *   interrupts that come during a run are part of the thread's CPU time and so of the run).
 *
 * Build: gcc -O2 -pthread -o latbench latbench.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define MAX_THREADS 256
#define MAX_STAMPS 200000

enum kind { PERIODIC, BUSY, PP_CLIENT, PP_SERVER, HB_SENDER, HB_RECEIVER };
static const char *KIND[] = {"periodic", "busy", "pp-client", "pp-server", "hb-sender", "hb-receiver"};

struct thread {
    int group;
    enum kind kind;
    long run_us, sleep_us;
    int cpu, nice;
    int thread_clock;         /* periodic: runs measured on CLOCK_THREAD_CPUTIME_ID (clock=thread) */
    char cg[256];
    int in_fd, out_fd;        /* pingpong: read end, write end */
    int hb_fds[64], hb_nfds;  /* hackbench sender: the receivers' write ends */
    long hb_loops, hb_expect; /* messages per receiver (sender) / to read (receiver) */
    pid_t tid;
    long units;
    int64_t gap_short, gap_long; /* burn()'s, at the end */
    int64_t *stamps;          /* wake-up return times, ns */
    long nstamps;
    char sched[2048];         /* /proc/self/task/TID/sched at the end */
    int64_t done;             /* CLOCK_MONOTONIC when the thread finished its work, ns */
};

static struct thread threads[MAX_THREADS];
static int nthreads;
static pthread_barrier_t start;
static volatile int stop;
static int64_t t_end;

static int64_t now_ns(clockid_t c) {
    struct timespec ts;
    clock_gettime(c, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/*
 * Runs us of this thread's own work without entering the kernel: it reads CLOCK_MONOTONIC (vDSO, ~30 ns on this
 * guest) and counts only the steps shorter than GAP_NS, so time spent preempted or in an interrupt is not work.
 * A loop on CLOCK_THREAD_CPUTIME_ID would be a system call per step, and every one runs update_curr(), which ends
 * a slice to the nanosecond; the model's programs, like real computation, meet the scheduler only at the tick
 * and at wakeups.
 */
#define GAP_NS 2000
/* What burn() left out, per thread: steps of 2-100 µs (interrupts, which the kernel charges to this thread) and
 * longer ones (another thread ran, or the host stopped the vCPU: neither is this thread's CPU time); printed as
 * gapShortNs and gapLongNs, so that a cycle's cost beyond its work splits into what came during its runs and what its
 * sleep and wakeup took (docs/latency-validation.md, "A fresh boot, its costs by the script") */
#define LONG_GAP_NS 100000
static __thread int64_t gap_short, gap_long;
static void burn(long us) {
    int64_t left = us * 1000, prev = now_ns(CLOCK_MONOTONIC);
    while (left > 0 && !stop) {
        int64_t now = now_ns(CLOCK_MONOTONIC), step = now - prev;
        if (step < GAP_NS) {
            left -= step;
        } else if (step < LONG_GAP_NS) {
            gap_short += step;
        } else {
            gap_long += step;
        }
        prev = now;
    }
}

/*
 * Runs us of this thread's own CPU clock, as spin.c does: the clock (a system call: task_sched_runtime() runs
 * update_curr()) read between loops of 1000 increments, so whatever the kernel charges the thread meanwhile —
 * the interrupts it takes, without IRQ_TIME_ACCOUNTING — counts toward the run.
 */
static void burn_thread_clock(long us) {
    volatile unsigned long x = 0;
    int64_t t0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
    while (now_ns(CLOCK_THREAD_CPUTIME_ID) - t0 < us * 1000 && !stop) {
        for (int i = 0; i < 1000; i++) {
            x++;
        }
    }
}

static void stamp(struct thread *t) {
    if (t->nstamps < MAX_STAMPS) {
        t->stamps[t->nstamps++] = now_ns(CLOCK_MONOTONIC);
    }
}

static void read_sched(struct thread *t) {
    char path[64];
    snprintf(path, sizeof path, "/proc/self/task/%d/sched", (int)t->tid);
    FILE *f = fopen(path, "r");
    if (!f) {
        return;
    }
    size_t n = fread(t->sched, 1, sizeof t->sched - 1, f);
    t->sched[n] = 0;
    fclose(f);
}

static void join_cgroup(struct thread *t) {
    if (!t->cg[0]) {
        return;
    }
    char path[300];
    snprintf(path, sizeof path, "%s/tasks", t->cg);
    FILE *f = fopen(path, "w");
    if (!f || fprintf(f, "%d\n", (int)t->tid) < 0 || fclose(f) != 0) {
        fprintf(stderr, "cannot join %s: %s\n", t->cg, strerror(errno));
        exit(2);
    }
}

static void *body(void *arg) {
    struct thread *t = arg;
    t->tid = (pid_t)syscall(SYS_gettid);
    if (t->cpu >= 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(t->cpu, &set);
        sched_setaffinity(0, sizeof set, &set);
    }
    if (t->nice) {
        setpriority(PRIO_PROCESS, t->tid, t->nice);
    }
    join_cgroup(t);
    pthread_barrier_wait(&start);
    char b = 0;
    switch (t->kind) {
    case PERIODIC:
        while (!stop) {
            if (t->thread_clock) {
                burn_thread_clock(t->run_us);
            } else {
                burn(t->run_us);
            }
            struct timespec ts = {t->sleep_us / 1000000, (t->sleep_us % 1000000) * 1000};
            clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
            stamp(t);
            t->units++;
        }
        break;
    case BUSY:
        while (!stop) {
            burn(1000);
            t->units++; /* ms of its own work: CPU time minus units is what it lost to others' interrupts */
        }
        break;
    case PP_CLIENT:
        while (!stop) {
            burn(t->run_us);
            if (write(t->out_fd, &b, 1) != 1 || read(t->in_fd, &b, 1) != 1) {
                break;
            }
            stamp(t);
            t->units++;
        }
        close(t->out_fd);
        break;
    case PP_SERVER:
        while (read(t->in_fd, &b, 1) == 1) {
            stamp(t);
            burn(t->run_us);
            if (write(t->out_fd, &b, 1) != 1) {
                break;
            }
        }
        break;
    case HB_SENDER:
        for (long i = 0; i < t->hb_loops && !stop; i++) {
            for (int r = 0; r < t->hb_nfds; r++) {
                burn(t->run_us);
                if (write(t->hb_fds[r], &b, 1) != 1) {
                    return NULL;
                }
                t->units++;
            }
        }
        break;
    case HB_RECEIVER:
        while (t->units < t->hb_expect && read(t->in_fd, &b, 1) == 1) {
            stamp(t);
            burn(t->run_us);
            t->units++;
        }
        break;
    }
    t->done = now_ns(CLOCK_MONOTONIC);
    t->gap_short = gap_short;
    t->gap_long = gap_long;
    read_sched(t);
    return NULL;
}

static struct thread *add(int group, enum kind k) {
    if (nthreads == MAX_THREADS) {
        fprintf(stderr, "too many threads\n");
        exit(2);
    }
    struct thread *t = &threads[nthreads++];
    memset(t, 0, sizeof *t);
    t->group = group;
    t->kind = k;
    t->cpu = -1;
    t->stamps = malloc(sizeof(int64_t) * MAX_STAMPS);
    return t;
}

/* Parses one GROUP; returns the number of threads it added. */
static void parse(int group, char *spec) {
    char *f[16];
    int n = 0;
    for (char *p = strtok(spec, ","); p && n < 16; p = strtok(NULL, ",")) {
        f[n++] = p;
    }
    int cpu = -1, nice = 0, peer = -1, thread_clock = 0;
    char cg[256] = "";
    int positional = n;
    for (int i = 0; i < n; i++) {
        if (!strncmp(f[i], "cpu=", 4)) {
            cpu = atoi(f[i] + 4);
        } else if (!strncmp(f[i], "peer=", 5)) {
            peer = atoi(f[i] + 5);
        } else if (!strncmp(f[i], "nice=", 5)) {
            nice = atoi(f[i] + 5);
        } else if (!strcmp(f[i], "clock=thread")) {
            thread_clock = 1;
        } else if (!strncmp(f[i], "cg=", 3)) {
            snprintf(cg, sizeof cg, "%s", f[i] + 3);
        } else {
            continue;
        }
        if (i < positional) {
            positional = i;
        }
    }
    int first = nthreads;
    int count = atoi(f[1]);
    if (!strcmp(f[0], "periodic")) {
        for (int i = 0; i < count; i++) {
            struct thread *t = add(group, PERIODIC);
            t->run_us = atol(f[2]);
            t->sleep_us = atol(f[3]);
        }
    } else if (!strcmp(f[0], "busy")) {
        for (int i = 0; i < count; i++) {
            add(group, BUSY);
        }
    } else if (!strcmp(f[0], "pingpong")) {
        for (int i = 0; i < count; i++) {
            int up[2], down[2];
            if (pipe(up) || pipe(down)) {
                exit(2);
            }
            struct thread *c = add(group, PP_CLIENT);
            c->run_us = atol(f[3]);
            c->out_fd = up[1];
            c->in_fd = down[0];
            struct thread *s = add(group, PP_SERVER);
            s->run_us = atol(f[2]);
            s->in_fd = up[0];
            s->out_fd = down[1];
        }
    } else if (!strcmp(f[0], "hackbench")) {
        int fds = atoi(f[2]);
        long loops = atol(f[3]), msg = atol(f[4]);
        for (int g = 0; g < count; g++) {
            int wr[64];
            struct thread *recv[64];
            for (int r = 0; r < fds; r++) {
                int p[2];
                if (pipe(p)) {
                    exit(2);
                }
                wr[r] = p[1];
                recv[r] = add(group, HB_RECEIVER);
                recv[r]->in_fd = p[0];
                recv[r]->run_us = msg;
                recv[r]->hb_expect = loops * fds;
            }
            for (int s = 0; s < fds; s++) {
                struct thread *t = add(group, HB_SENDER);
                t->run_us = msg;
                t->hb_loops = loops;
                t->hb_nfds = fds;
                memcpy(t->hb_fds, wr, sizeof(int) * fds);
            }
            (void)recv;
        }
    } else {
        fprintf(stderr, "unknown group kind %s\n", f[0]);
        exit(2);
    }
    for (int i = first; i < nthreads; i++) {
        threads[i].cpu = peer >= 0 && threads[i].kind == PP_SERVER ? peer : cpu;
        threads[i].nice = nice;
        threads[i].thread_clock = thread_clock;
        snprintf(threads[i].cg, sizeof threads[i].cg, "%s", cg);
    }
}

static void print_thread(struct thread *t) {
    printf("{\"group\":%d,\"kind\":\"%s\",\"tid\":%d,\"units\":%ld,\"gapShortNs\":%lld,\"gapLongNs\":%lld,"
           "\"done\":%lld,\"stamps\":[", t->group, KIND[t->kind], (int)t->tid, t->units, (long long)t->gap_short,
           (long long)t->gap_long, (long long)t->done);
    for (long i = 0; i < t->nstamps; i++) {
        printf(i ? ",%lld" : "%lld", (long long)t->stamps[i]);
    }
    printf("],\"sched\":\"");
    for (char *p = t->sched; *p; p++) {
        if (*p == '\n') {
            printf("\\n");
        } else if (*p == '"' || *p == '\\') {
            printf("\\%c", *p);
        } else {
            putchar(*p);
        }
    }
    printf("\"}\n");
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: latbench DURATION_MS GROUP...\n");
        return 2;
    }
    long ms = atol(argv[1]);
    for (int i = 2; i < argc; i++) {
        parse(i - 2, argv[i]);
    }
    pthread_barrier_init(&start, NULL, nthreads + 1);
    pthread_t ids[MAX_THREADS];
    for (int i = 0; i < nthreads; i++) {
        pthread_create(&ids[i], NULL, body, &threads[i]);
    }
    pthread_barrier_wait(&start);
    int64_t t0 = now_ns(CLOCK_MONOTONIC);
    t_end = t0 + ms * 1000000LL;
    fprintf(stderr, "latbench: %d threads started at %lld\n", nthreads, (long long)t0);
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000};
    clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
    stop = 1;
    /* Senders and the rest end by themselves; then closing the hackbench pipes ends the receivers' reads. */
    for (int i = 0; i < nthreads; i++) {
        if (threads[i].kind != HB_RECEIVER) {
            pthread_join(ids[i], NULL);
        }
    }
    for (int i = 0; i < nthreads; i++) {
        if (threads[i].kind == HB_SENDER) {
            for (int r = 0; r < threads[i].hb_nfds; r++) {
                close(threads[i].hb_fds[r]); /* (a group's senders share them: later closes fail harmlessly) */
            }
        }
    }
    for (int i = 0; i < nthreads; i++) {
        if (threads[i].kind == HB_RECEIVER) {
            pthread_join(ids[i], NULL);
        }
    }
    printf("{\"start\":%lld,\"end\":%lld}\n", (long long)t0, (long long)t_end);
    for (int i = 0; i < nthreads; i++) {
        print_thread(&threads[i]);
    }
    return 0;
}
