package dev.schedsim.engine.select;

import dev.schedsim.engine.event.SimClock;
import dev.schedsim.engine.event.Timers;
import dev.schedsim.engine.fair.SisCache;
import dev.schedsim.engine.machine.Execution;
import dev.schedsim.engine.sched.Cpu;
import dev.schedsim.engine.sched.RqClock;
import dev.schedsim.engine.sched.Task;
import dev.schedsim.engine.sched.TaskGroup;
import dev.schedsim.engine.spec.HardwareModel;
import dev.schedsim.engine.spec.KernelConfig;
import dev.schedsim.engine.spec.TopologySpec;
import dev.schedsim.engine.topology.SchedDomainShared;
import dev.schedsim.engine.topology.Topology;

/**
 * What the select_idle_cpu() tests share: one LLC of 8 CPUs without SMT, the root group, a wakee, and a
 * SelectIdleSibling over fresh CPUs for a kernel configuration.
 */
final class OneLlc {
    final SimClock clock = new SimClock();
    final Topology topo = new Topology(TopologySpec.uniform(1, 1, 1, 8, 1));
    final TaskGroup root = new TaskGroup(0, "/", null, 100, 8);
    final Cpu[] cpus = new Cpu[8];
    final SchedDomainShared shared = new SchedDomainShared(topo);
    final Task wakee = new Task(1, null, 0, root, null, 0, 1024);

    /** Fresh CPUs (all idle) and select_idle_sibling() over them, with the default 1-thread hardware costs. */
    SelectIdleSibling select(KernelConfig k) {
        for (int c = 0; c < cpus.length; c++) {
            cpus[c] = new Cpu(c, topo.coreOf(c), root.rq[c]);
        }
        Execution execution = new Execution(k, clock, new Timers(cpus.length, 1, 1), new RqClock(clock));
        return new SelectIdleSibling(k, HardwareModel.defaults(1), cpus, topo, shared, clock, execution,
                new SisCache(k, clock));
    }
}
