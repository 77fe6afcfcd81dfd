package dev.schedsim.engine.workload;

import dev.schedsim.engine.spec.WorkloadSpec;

/** The program of each workload type: the one place that maps a spec's kind to its program. */
final class Programs {
    private Programs() {
    }

    static Program of(WorkloadRun run, WorkloadSpec.Kind kind) {
        if (kind instanceof WorkloadSpec.CpuBound k) {
            return new CpuBoundProgram(run, k);
        } else if (kind instanceof WorkloadSpec.Periodic k) {
            return new PeriodicProgram(run, k);
        } else if (kind instanceof WorkloadSpec.RequestResponse k) {
            return new RequestResponseProgram(run, k);
        } else if (kind instanceof WorkloadSpec.Hackbench k) {
            return new HackbenchProgram(run, k);
        } else if (kind instanceof WorkloadSpec.Schbench k) {
            return new SchbenchProgram(run, k);
        } else if (kind instanceof WorkloadSpec.Trace k) {
            return new TraceProgram(run, k);
        } else if (kind instanceof WorkloadSpec.Phases k) {
            return new PhasesProgram(run, k);
        }
        throw new IllegalStateException("no program for " + kind);
    }
}
