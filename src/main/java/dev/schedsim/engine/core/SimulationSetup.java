package dev.schedsim.engine.core;

import dev.schedsim.engine.api.EngineSpec;
import dev.schedsim.engine.machine.MachineActivity;
import dev.schedsim.engine.sched.Cpu;
import dev.schedsim.engine.sched.Entity;
import dev.schedsim.engine.sched.Task;
import dev.schedsim.engine.sched.TaskGroup;
import dev.schedsim.engine.sched.Tunables;
import dev.schedsim.engine.sched.Weights;
import dev.schedsim.engine.spec.CgroupSpec;
import dev.schedsim.engine.spec.Feature;
import dev.schedsim.engine.spec.KernelConfig;
import dev.schedsim.engine.spec.MachineNoise;
import dev.schedsim.engine.spec.WorkloadSpec;
import dev.schedsim.engine.topology.Topology;
import dev.schedsim.engine.workload.WorkloadRun;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What a simulation is made of before its first event, as sched_init() and the harness's forks make it: the CPUs
 * with their root cfs_rq, the task groups of the spec's cgroups, and the workloads with their tasks (the spec's,
 * the machine's background threads, the warm-up runs' copies). Simulation wires the mechanisms over them.
 */
final class SimulationSetup {
    private SimulationSetup() {
    }

    /** The CPUs, each with its root cfs_rq and, under SCHED_SKEW_TICK, its tick's offset. */
    static Cpu[] cpus(KernelConfig kernel, Topology topo, TaskGroup root) {
        int ncpu = topo.cpuCount();
        Cpu[] cpus = new Cpu[ncpu];
        for (int c = 0; c < ncpu; c++) {
            cpus[c] = new Cpu(c, topo.coreOf(c), root.rq[c]);
            if (kernel.on(Feature.SCHED_SKEW_TICK)) {
                // tick_setup_sched_timer(): offset = (TICK_NSEC >> 1) / num_possible_cpus() × cpu
                cpus[c].tickSkewNs = (kernel.tickNs() >> 1) / ncpu * c;
            }
        }
        return cpus;
    }

    /**
     * The task groups of the spec's cgroups, parents first. A group entity's slice is the smallest slice queued
     * below it: enqueue_task_fair() sets se->slice = cfs_rq_min_slice() of its queue on every enqueue (6.12,
     * aef6987d8954; 6.6-6.11 update_deadline() set sysctl_sched_base_slice). Every task here has the base slice,
     * so every group entity has it too, and it is given once. (It was 0: a group's deadline was its vruntime, so
     * a running group always had the earliest deadline and won every wakeup pick.)
     */
    static TaskGroup[] taskGroups(List<CgroupSpec> cgroups, int ncpu, long baseSliceNs) {
        TaskGroup[] out = new TaskGroup[cgroups.size()];
        Map<String, TaskGroup> byPath = new HashMap<>();
        for (int i = 0; i < out.length; i++) {
            CgroupSpec c = cgroups.get(i);
            TaskGroup parent = c.parentPath() == null ? null : byPath.get(c.parentPath());
            out[i] = new TaskGroup(i, c.path(), parent, c.weight(), ncpu);
            for (Entity se : out[i].se) {
                if (se != null) {
                    se.slice = baseSliceNs;
                }
            }
            byPath.put(c.path(), out[i]);
        }
        return out;
    }

    /**
     * The workloads and their tasks (ids in spec order), then the machine's background threads (MachineNoise), one
     * run per class after the spec's, then the warm-up runs' copies of the workloads ({@link WarmupPlan}).
     */
    static WorkloadRun[] workloads(EngineSpec spec, WarmupPlan warmup, TaskGroup[] groups, Task[] tasks,
                                   Wakeup wakeup, Tunables tunables, int ncpu, MachineNoise noise,
                                   MachineActivity activity) {
        Map<String, TaskGroup> byPath = new HashMap<>();
        for (TaskGroup g : groups) {
            byPath.put(g.path, g);
        }
        int specWorkloads = spec.workloads().size();
        int machine = specWorkloads + noise.background().size();
        WorkloadRun[] out = new WorkloadRun[machine + warmup.workloads.size()];
        int id = 0;
        for (int w = 0; w < out.length; w++) {
            WorkloadSpec ws;
            WorkloadRun run;
            if (w < specWorkloads) {
                ws = spec.workloads().get(w);
                run = new WorkloadRun(w, ws, wakeup);
                run.originNs = warmup.originNs;
            } else if (w < machine) {
                run = WorkloadRun.background(w, noise.background().get(w - specWorkloads), activity.split(), wakeup);
                ws = run.spec;
            } else {
                ws = warmup.workloads.get(w - machine);
                run = new WorkloadRun(w, ws, wakeup);
                run.warmup = true;
                run.originNs = warmup.startNs((w - machine) / Math.max(1, specWorkloads));
            }
            out[w] = run;
            boolean[] allowed = null;
            int[] aff = ws.cpus();
            if (aff != null) {
                allowed = new boolean[ncpu];
                for (int c : aff) {
                    allowed[c] = true;
                }
            }
            boolean[] serverAllowed = allowed;
            if (ws.kind() instanceof WorkloadSpec.RequestResponse rr && rr.serverCpus() != null) {
                // (servers pinned apart from their clients: odd threads, RequestResponseProgram)
                serverAllowed = new boolean[ncpu];
                for (int c : rr.serverCpus()) {
                    serverAllowed[c] = true;
                }
            }
            TaskGroup g = byPath.get(ws.cgroup());
            for (int i = 0; i < run.tasks.length; i++) {
                Task task = new Task(id, run, i, g, i % 2 == 1 ? serverAllowed : allowed, ws.nice(),
                        Weights.niceToWeight(ws.nice()));
                task.se.slice = tunables.baseSliceNs();
                tasks[id++] = task;
                run.tasks[i] = task;
            }
        }
        return out;
    }
}
