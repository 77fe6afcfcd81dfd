package dev.schedsim.engine.machine;

import dev.schedsim.engine.sched.Cpu;
import dev.schedsim.engine.spec.HardwareModel;
import dev.schedsim.engine.topology.Topology;

/**
 * (model) SMT throughput: a core with k busy hardware threads delivers T(k) (the hardware model's curve), each
 * busy thread progressing at T(k)/k. Owns each core's busy-thread count.
 */
public final class Smt {
    private final Cpu[] cpus;
    private final Topology topo;
    private final Execution execution;
    private final Power power;
    /** Per core, its busy hardware threads. */
    private final int[] coreBusy;
    /** The rate of each busy thread of a core with k busy threads (1024 = full single-thread speed). */
    private final int[] rateOfK;

    public Smt(Cpu[] cpus, Topology topo, HardwareModel hw, Execution execution, Power power) {
        this.cpus = cpus;
        this.topo = topo;
        this.execution = execution;
        this.power = power;
        this.coreBusy = new int[topo.coreCount()];
        int t = topo.threadsPerCore();
        this.rateOfK = new int[t + 1];
        for (int k = 1; k <= t; k++) {
            rateOfK[k] = (int) Math.round(hw.throughput(k) / k * 1024);
        }
    }

    /** A CPU starts running tasks: one more busy thread on its core. */
    public void cpuBusy(Cpu cpu) {
        setCoreBusy(cpu.core, coreBusy[cpu.core] + 1);
    }

    /** A CPU goes idle: one busy thread fewer on its core. */
    public void cpuIdle(Cpu cpu) {
        setCoreBusy(cpu.core, coreBusy[cpu.core] - 1);
    }

    /** Each core's busy threads (read only). */
    public int[] coreBusy() {
        return coreBusy;
    }

    /** Changes a core's busy-thread count: settles each sibling's work at the old rate, re-arms it. */
    private void setCoreBusy(int core, int k) {
        int old = coreBusy[core];
        power.coreBusyChanged(core, old, k);
        coreBusy[core] = k;
        if (topo.threadsPerCore() == 1) {
            return;
        }
        int rate = k == 0 ? 1024 : rateOfK[k];
        for (int c : topo.siblingsOfCore(core)) {
            Cpu s = cpus[c];
            if (s.curr != null) {
                execution.updateWork(s);
                s.rate = rate;
                execution.armRunEnd(s);
            } else {
                s.rate = rate;
            }
        }
    }
}
