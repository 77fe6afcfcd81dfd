package dev.schedsim.queue;

import dev.schedsim.DatabaseErrors;
import dev.schedsim.SchedsimProperties;
import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * The bounded worker pool ({@code schedsim.workers}, default the available processors). Each worker claims the
 * oldest queued run, with the next runs of its variant when they are short ({@code schedsim.claim-batch}), and
 * runs them; an idle worker polls every {@code schedsim.poll-interval}. On start the runs a
 * dead process left RUNNING are requeued; while running, a reaper requeues runs whose heartbeat went stale
 * (another instance died); on stop no new run starts, the running ones may finish within
 * {@code schedsim.shutdown-grace}, then the rest are interrupted through their {@link RunHeartbeat} and requeued,
 * so a restart loses nothing.
 */
@Component
class SimulationWorkers implements SmartLifecycle {
    private static final Logger log = LoggerFactory.getLogger(SimulationWorkers.class);

    private final SimulationQueue queue;
    private final QueueRecovery recovery;
    private final BatchRunner runner;
    private final BatchSizer sizer;
    private final SimulationCompletion completion;
    private final WarmupRehearsal rehearsal;
    private final SchedsimProperties properties;
    private final String instance;
    /** A stop began: no new run starts. */
    private final AtomicBoolean draining = new AtomicBoolean();
    /** The grace is over: running engines are interrupted and their runs requeued. */
    private final AtomicBoolean stopping = new AtomicBoolean();
    private volatile ExecutorService pool;
    private volatile ScheduledExecutorService reaper;
    private volatile EngineWarmup warmup;

    SimulationWorkers(SimulationQueue queue, QueueRecovery recovery, BatchRunner runner, BatchSizer sizer,
                      SimulationCompletion completion, WarmupRehearsal rehearsal, SchedsimProperties properties) {
        this.queue = queue;
        this.recovery = recovery;
        this.runner = runner;
        this.sizer = sizer;
        this.completion = completion;
        this.rehearsal = rehearsal;
        this.properties = properties;
        this.instance = ManagementFactory.getRuntimeMXBean().getName() + "/"
                + UUID.randomUUID().toString().substring(0, 8);
    }

    @Override
    public synchronized void start() {
        if (pool != null) {
            return;
        }
        recovery.recover();
        recovery.unsettled(true).forEach(completion::settle);
        stopping.set(false);
        draining.set(false);
        int n = properties.workers();
        pool = Executors.newFixedThreadPool(n, r -> {
            Thread t = new Thread(r);
            t.setName("simulation-worker-" + t.getId());
            t.setDaemon(true);
            return t;
        });
        EngineWarmup warmup = new EngineWarmup(rehearsal, instance + "#0", queue::busy,
                properties.warmup().toNanos());
        this.warmup = warmup;
        for (int i = 0; i < n; i++) {
            String worker = instance + "#" + i;
            EngineWarmup w = i == 0 ? warmup : null;
            pool.execute(() -> loop(worker, w));
        }
        long timeoutMs = properties.recovery().heartbeatTimeout().toMillis();
        long periodMs = Math.max(250, Math.min(10_000, timeoutMs / 4));
        reaper = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "simulation-reaper");
            t.setDaemon(true);
            return t;
        });
        reaper.scheduleWithFixedDelay(() -> {
            try {
                recovery.reap();
                for (String id : recovery.unsettled(false)) {
                    completion.settle(id);
                }
            } catch (RuntimeException e) {
                if (DatabaseErrors.isOutage(e)) {
                    recovery.outage();
                }
                log.warn("reaper failed: {}", e.toString());
            }
        }, periodMs, periodMs, TimeUnit.MILLISECONDS);
        log.info("{} simulation worker(s) started as {}", n, instance);
    }

    /** A worker: claim a batch and run it; when nothing is queued, warm the JIT (worker 0, after a start) or wait. */
    private void loop(String worker, EngineWarmup warmup) {
        long pollMs = properties.pollInterval().toMillis();
        while (!draining.get()) {
            try {
                var claimed = queue.claim(worker, sizer);
                if (claimed.isPresent()) {
                    runner.run(claimed.get(), worker, draining::get, stopping::get);
                    continue;
                }
                if (warmup != null && warmup.step(draining::get)) {
                    continue;
                }
            } catch (RuntimeException e) {
                // The database may be briefly unavailable; keep the worker alive.
                if (DatabaseErrors.isOutage(e)) {
                    recovery.outage();
                }
                log.warn("worker {} failed to poll: {}", worker, e.toString());
            }
            try {
                queue.awaitWork(pollMs);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    @Override
    public synchronized void stop() {
        ExecutorService p = pool;
        if (p == null) {
            return;
        }
        draining.set(true);
        reaper.shutdownNow();
        p.shutdown();
        try {
            long graceMs = properties.shutdownGrace().toMillis();
            if (graceMs > 0 && !p.awaitTermination(graceMs, TimeUnit.MILLISECONDS)) {
                log.info("runs still running after the shutdown grace of {} ms: interrupted and requeued", graceMs);
            }
            stopping.set(true);
            if (!p.awaitTermination(15, TimeUnit.SECONDS)) {
                p.shutdownNow();
            }
        } catch (InterruptedException e) {
            stopping.set(true);
            p.shutdownNow();
            Thread.currentThread().interrupt();
        }
        pool = null;
    }

    /** Runs of the JIT warm-up since the workers started. */
    int warmupRuns() {
        EngineWarmup w = warmup;
        return w == null ? 0 : w.runs();
    }

    @Override
    public boolean isRunning() {
        return pool != null;
    }

    /** Stop before the web server and the datasource go away (the default phase of web servers is higher). */
    @Override
    public int getPhase() {
        return 0;
    }
}
