package dev.schedsim.queue;

import dev.schedsim.engine.api.RunCancelledException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The JIT warm-up of a freshly started service, on idle capacity. Until the JIT has compiled the engine and the
 * service path, a job runs several times slower: through the API, the 2-CPU validation cases ran at a median 431×
 * real time over the first 160 jobs after a start, 929× over the next 160 and 1 612× over the 160 after
 * (scripts/api-speed.sh, three rounds). So after a start, worker 0 — only while this instance has no work — runs
 * the requests below the way a job runs ({@link WarmupRehearsal#rehearse}: plan, engine, report and result
 * documents, and the job's database statements on a row that is rolled back) until it has spent
 * {@code schedsim.warmup} of its own CPU time (default 15 s; 0 turns it off). A job that starts on this instance
 * cancels the warm-up run in hand at the engine's next check (every 4 096 events), so the warm-up does not take
 * a core from jobs; it goes on once the instance is idle again. Measurements: README, "Try it".
 */
final class EngineWarmup {
    private static final Logger log = LoggerFactory.getLogger(EngineWarmup.class);

    /**
     * Requests that take the engine's main paths: bandwidth control on the 2-CPU validation machine under 6.18
     * (task-based throttling) and 6.6, the 64-CPU mix (three groups, SMT8, load balancing) under EEVDF, and a
     * 16-CPU machine with a cgroup hierarchy under CFS (6.1). {@code %d} is the seed: the first runs plan afresh,
     * and at most 8 different requests share the planner's cache of recent plans with the jobs.
     */
    static final String[] REQUESTS = {
        """
        {"name":"warmup-validation","topology":{"preset":"validation-2c"},"kernel":{"profile":"6.18","hz":250},
         "cgroups":[{"path":"/a","cpuMax":"150000 100000"}],
         "workloads":[{"name":"w","cgroup":"/a","type":"cpu-bound","threads":4}],"durationMs":3000,"seed":%d}""",
        """
        {"name":"warmup-periodic","topology":{"preset":"validation-2c"},"kernel":{"profile":"6.6","hz":250},
         "cgroups":[{"path":"/a","cpuMax":"50000 100000","cpuMaxBurst":20000}],
         "workloads":[{"name":"w","cgroup":"/a","type":"periodic","threads":4,"runUs":1000,"sleepUs":4000}],
         "durationMs":3000,"seed":%d}""",
        """
        {"name":"warmup-mix","topology":{"preset":"power10-8c-smt8"},"kernel":{"profile":"6.18"},
         "cgroups":[{"path":"/batch","cpuMax":"1600000 100000"},{"path":"/web","cpuWeight":200},
                    {"path":"/svc","cpuMax":"800000 100000"}],
         "workloads":[{"name":"batch","cgroup":"/batch","type":"cpu-bound","threads":85},
                      {"name":"web","cgroup":"/web","type":"periodic","threads":85,"runUs":2000,"sleepUs":8000},
                      {"name":"svc","cgroup":"/svc","type":"request-response","pairs":43,
                       "serviceUs":50,"thinkUs":20}],
         "durationMs":200,"seed":%d}""",
        """
        {"name":"warmup-cfs","topology":{"preset":"desktop-8c-smt2"},"kernel":{"profile":"6.1"},
         "cgroups":[{"path":"/p"},{"path":"/p/a","cpuMax":"400000 100000"},{"path":"/p/b","cpuWeight":50}],
         "workloads":[{"name":"a","cgroup":"/p/a","type":"cpu-bound","threads":12},
                      {"name":"b","cgroup":"/p/b","type":"request-response","pairs":8,
                       "serviceUs":30,"thinkUs":10}],
         "durationMs":300,"seed":%d}""",
    };

    private final WarmupRehearsal runner;
    private final String worker;
    /** True while this instance has work: a run in progress or a submission not yet taken. */
    private final BooleanSupplier busy;
    private final long budgetNs;
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private long spentNs;
    private volatile int runs;
    private volatile int yielded;
    private boolean over;

    EngineWarmup(WarmupRehearsal runner, String worker, BooleanSupplier busy, long budgetNs) {
        this.runner = runner;
        this.worker = worker;
        this.busy = busy;
        this.budgetNs = budgetNs;
    }

    /**
     * One warm-up run while the budget lasts and the instance has no work: true when it ran one (the caller then
     * looks for work again), false when it did not (budget spent, service stopping, or a job running here: the
     * caller waits for work). A job that starts meanwhile cancels the run in hand at the engine's next check, so
     * that the warm-up never competes with jobs for the cores. Called by one worker thread only.
     */
    boolean step(BooleanSupplier stopping) {
        if (spentNs >= budgetNs || stopping.getAsBoolean()) {
            if (!over && runs > 0) {
                log.info("JIT warm-up done: {} runs, {} ms of CPU", runs, spentNs / 1_000_000);
            }
            over = true;
            return false;
        }
        if (busy.getAsBoolean()) {
            return false;
        }
        long t0 = cpuNs();
        try {
            runner.rehearse(REQUESTS[runs % REQUESTS.length].formatted(runs % 8), worker,
                    () -> stopping.getAsBoolean() || busy.getAsBoolean());
        } catch (RunCancelledException e) {
            // A job started here (the warm-up resumes when the instance is idle again) or the service stops.
            spentNs += cpuNs() - t0;
            if (!stopping.getAsBoolean()) {
                yielded++;
            }
            return false;
        } catch (RuntimeException e) {
            // A bug in a sample request or the engine: the warm-up is over, the service is not at stake.
            log.warn("JIT warm-up stopped after {} runs", runs, e);
            spentNs = budgetNs;
            return false;
        }
        runs++;
        spentNs += cpuNs() - t0;
        return true;
    }

    /** Warm-up runs cancelled because a job started (read by other threads for tests: a plain read is enough). */
    int yielded() {
        return yielded;
    }

    /** Warm-up runs done so far (read by other threads for tests and logs: a plain read is enough there). */
    int runs() {
        return runs;
    }

    private long cpuNs() {
        return threads.isCurrentThreadCpuTimeSupported() ? threads.getCurrentThreadCpuTime() : System.nanoTime();
    }
}
