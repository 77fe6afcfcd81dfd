package dev.schedsim.engine.workload;

import dev.schedsim.engine.spec.WorkloadSpec;

/**
 * periodic: run, then sleep, with an optional ± uniform jitter on both; a sleep ends {@link #TIMER_SLACK_NS}
 * late like an hrtimer with the default 50 µs slack (rt-app's run/sleep, cyclictest-like loads).
 */
final class PeriodicProgram extends Program {
    private final long runNs;
    private final long sleepNs;
    private final int jitterPct;
    /** Per thread: it has started its cycle's run. */
    private final boolean[] running;

    PeriodicProgram(WorkloadRun run, WorkloadSpec.Periodic k) {
        super(run);
        this.runNs = k.runUs() * 1000;
        this.sleepNs = k.sleepUs() * 1000;
        this.jitterPct = k.jitterPct();
        this.running = new boolean[k.threadCount()];
    }

    @Override
    public boolean finite() {
        return false;
    }

    @Override
    protected Action step(int self, SimThread t) {
        if (!running[self]) {
            running[self] = true;
            return t.run(jitter(t, runNs));
        }
        run.units++;
        running[self] = false;
        if (sleepNs == 0) {
            running[self] = true;
            return t.run(jitter(t, runNs));
        }
        return t.sleep(jitter(t, sleepNs), TIMER_SLACK_NS);
    }

    private long jitter(SimThread t, long ns) {
        if (jitterPct <= 0 || ns <= 0) {
            return ns;
        }
        double u = t.random().nextDouble() * 2 - 1;
        return Math.max(0, Math.round(ns * (1 + u * jitterPct / 100.0)));
    }
}
