package dev.schedsim.engine.workload;

import dev.schedsim.engine.spec.WorkloadSpec;

/** cpu-bound: run {@code workUs} of work, or forever, then exit (stress-ng --cpu, a spinning loop). */
final class CpuBoundProgram extends Program {
    private final long workNs;
    private final boolean[] started;

    CpuBoundProgram(WorkloadRun run, WorkloadSpec.CpuBound k) {
        super(run);
        this.workNs = k.workUs() * 1000;
        this.started = new boolean[k.threadCount()];
    }

    @Override
    public boolean finite() {
        return workNs > 0;
    }

    @Override
    protected Action step(int self, SimThread t) {
        if (started[self]) {
            return Action.EXIT;
        }
        started[self] = true;
        return workNs > 0 ? t.run(workNs) : t.runForever();
    }

    /** CPU-seconds of work done (at full single-thread speed). */
    @Override
    public double throughputUnits(long workDoneNs) {
        return workDoneNs / 1e9;
    }
}
