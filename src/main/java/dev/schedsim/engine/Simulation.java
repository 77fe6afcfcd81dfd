package dev.schedsim.engine;

import dev.schedsim.engine.bandwidth.CgroupSpec;
import dev.schedsim.engine.event.EventQueue;
import dev.schedsim.engine.kernel.Feature;
import dev.schedsim.engine.kernel.KernelConfig;
import dev.schedsim.engine.topology.HardwareModel;
import dev.schedsim.engine.topology.Topology;
import dev.schedsim.engine.workload.WorkloadSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * One run of the model: the event loop and the core scheduler paths of kernel/sched/fair.c and core.c —
 * enqueue/dequeue through the group hierarchy, update_curr, the tick, schedule() with put_prev / pick /
 * set_next, wakeups with wakeup preemption, and the SMT throughput and idle-state models of the machine.
 * Bandwidth control is in {@link BandwidthControl}, wakeup placement in {@link Placement}.
 *
 * <p><b>Determinism:</b> time is a long of nanoseconds; the only randomness is {@link #random()}, seeded
 * from the run's seed; events are ordered by (time, priority, sequence).
 *
 * <p><b>Limitations</b> (this version): group shares use instantaneous run-queue weights instead of PELT
 * load averages; no periodic or newidle load balancing (tasks move only through wakeup placement);
 * EEVDF's DELAY_DEQUEUE is not modelled; scheduler overheads are not charged.
 */
final class Simulation {
    // Event priorities at equal times: the end first, then timers in the order the kernel's hrtimer
    // softirq/interrupt would most plausibly run them, the tick last.
    private static final int PRIO_END = 0;
    private static final int PRIO_PERIOD = 1;
    private static final int PRIO_SLACK = 2;
    private static final int PRIO_TASK = 3;
    private static final int PRIO_RUN_END = 4;
    private static final int PRIO_IDLE_EXIT = 5;
    private static final int PRIO_TICK = 6;

    private static final int ENQUEUE_WAKEUP = 1;
    private static final int ENQUEUE_INITIAL = 2;

    final EngineSpec spec;
    final KernelConfig kernel;
    final Topology topo;
    final HardwareModel hw;
    private final SplittableRandom rnd;
    private final long eventBudget;
    private final RunControl control;
    final int ncpu;
    final long tickNs;
    final long endNs;
    final boolean eevdf;
    final boolean taskThrottle;
    /** EEVDF sysctl_sched_base_slice scaled by CPU count. */
    final long baseSliceNs;
    // CFS (pre-6.6) tunables, scaled (kernel-facts §5.2).
    final long cfsLatencyNs;
    final long cfsMinGranNs;
    final long cfsWakeupGranNs;
    /** BANDWIDTH_STATIC_KEY: the bandwidth hooks are patched out while no group has a quota. */
    final boolean staticKey;

    long now;
    long events;
    final Cpu[] cpus;
    final int[] coreBusy;
    private final int[] rateOfK;
    private final long[] refillNsPerKb;
    final TaskGroup[] groups;
    final Task[] tasks;
    final WorkloadRun[] workloads;
    final EventQueue queue;
    final BandwidthControl bandwidth;
    final Placement placement;
    final LoadBalancer balancer;
    final Recorder recorder;

    private final int slotTick;
    private final int slotRunEnd;
    private final int slotIdleExit;
    private final int slotTask;
    final int slotGroup;
    private final int slotStop;
    private final int slotEnd;

    private final int[] resched;
    private int reschedHead;
    private int reschedSize;
    private int finiteLeft;
    private boolean allFinite;

    long contextSwitches;
    long migrations;
    long wakeups;
    /** Set while schedule() throttles the previous task's cfs_rq in put_prev (6.1 model). */
    private boolean throttledInPutPrev;
    private final double[] coreEnergyJ;
    private final long[] coreSince;
    private final long[] coreIdleFrom;
    private final boolean[] idleExitDone;

    Simulation(EngineSpec spec, long seed, long eventBudget, RunControl control) {
        this.spec = spec;
        this.kernel = spec.kernel();
        this.topo = new Topology(spec.topology());
        this.hw = topo.hardware();
        this.rnd = new SplittableRandom(seed);
        this.eventBudget = eventBudget;
        this.control = control;
        this.ncpu = topo.cpuCount();
        this.tickNs = kernel.tickNs();
        this.endNs = spec.durationUs() * 1000;
        this.eevdf = kernel.on(Feature.EEVDF);
        this.taskThrottle = kernel.on(Feature.TASK_BASED_THROTTLE);
        this.staticKey = kernel.on(Feature.BANDWIDTH_STATIC_KEY);
        int factor = Fair.tunableFactor(ncpu);
        this.baseSliceNs = kernel.baseSliceNs() * factor;
        this.cfsLatencyNs = 6_000_000L * factor;
        this.cfsMinGranNs = 750_000L * factor;
        this.cfsWakeupGranNs = 1_000_000L * factor;

        int threads = (int) spec.threadCount();
        int ngroups = spec.cgroups().size();
        slotTick = 0;
        slotRunEnd = ncpu;
        slotIdleExit = 2 * ncpu;
        slotTask = 3 * ncpu;
        slotGroup = slotTask + threads;
        slotStop = slotGroup + 2 * ngroups;
        slotEnd = slotStop + 1;
        queue = new EventQueue(slotEnd + 1);
        resched = new int[ncpu];
        idleExitDone = new boolean[ncpu];

        groups = new TaskGroup[ngroups];
        Map<String, TaskGroup> byPath = new HashMap<>();
        for (int i = 0; i < ngroups; i++) {
            CgroupSpec c = spec.cgroups().get(i);
            TaskGroup parent = c.parentPath() == null ? null : byPath.get(c.parentPath());
            TaskGroup g = new TaskGroup(i, c.path(), parent, c.weight(), ncpu);
            groups[i] = g;
            byPath.put(c.path(), g);
        }
        cpus = new Cpu[ncpu];
        for (int c = 0; c < ncpu; c++) {
            cpus[c] = new Cpu(c, topo.coreOf(c), groups[0].rq[c]);
        }
        coreBusy = new int[topo.coreCount()];
        coreEnergyJ = new double[topo.coreCount()];
        coreSince = new long[topo.coreCount()];
        coreIdleFrom = new long[topo.coreCount()];
        int t = topo.threadsPerCore();
        refillNsPerKb = hw.cacheRefillNsPerKb();
        rateOfK = new int[t + 1];
        for (int k = 1; k <= t; k++) {
            rateOfK[k] = (int) Math.round(hw.throughput(k) / k * 1024);
        }
        bandwidth = new BandwidthControl(this);
        placement = new Placement(this);
        balancer = new LoadBalancer(this);
        recorder = new Recorder(endNs, ngroups, spec.trace());

        tasks = new Task[threads];
        workloads = new WorkloadRun[spec.workloads().size()];
        int id = 0;
        for (int w = 0; w < workloads.length; w++) {
            WorkloadSpec ws = spec.workloads().get(w);
            WorkloadRun run = new WorkloadRun(w, ws, ws.threadCount());
            workloads[w] = run;
            boolean[] allowed = null;
            int[] aff = ws.cpus();
            if (aff != null) {
                allowed = new boolean[ncpu];
                for (int c : aff) {
                    allowed[c] = true;
                }
            }
            TaskGroup g = byPath.get(ws.cgroup());
            for (int i = 0; i < run.tasks.length; i++) {
                Task task = new Task(id, run, g, allowed, ws.nice(), Fair.niceToWeight(ws.nice()));
                task.se.slice = baseSliceNs;
                tasks[id++] = task;
                run.tasks[i] = task;
            }
            run.link();
        }
    }

    SplittableRandom random() {
        return rnd;
    }

    // ------------------------------------------------------------------------------------------------
    // The loop

    /** Cgroup configuration happens at time 0, before any task starts (tg_set_cfs_bandwidth()). */
    void configureCgroups() {
        for (int i = 0; i < groups.length; i++) {
            CgroupSpec c = spec.cgroups().get(i);
            if (c.limited()) {
                bandwidth.configure(groups[i], c);
            }
        }
    }

    Report run() {
        configureCgroups();
        for (WorkloadRun w : workloads) {
            if (w.finite) {
                finiteLeft++;
            }
        }
        allFinite = finiteLeft == workloads.length && workloads.length > 0;
        for (WorkloadRun w : workloads) {
            for (int i = 0; i < w.tasks.length; i++) {
                Task task = w.tasks[i];
                int cpu = placement.forkCpu(task);
                task.cpu = cpu;
                if (WorkloadRun.startsBlocked(w.spec, i)) {
                    int a = w.next(this, task);
                    task.state = Task.BLOCKED;
                    if (a != WorkloadRun.BLOCK) {
                        throw new IllegalStateException("blocked-start task must block");
                    }
                } else if (spec.startUs() > 0) {
                    queue.arm(slotTask + task.id, spec.startUs() * 1000, PRIO_TASK);
                } else {
                    start(task, cpu);
                }
            }
        }
        processResched();
        queue.arm(slotEnd, endNs, PRIO_END);
        if (spec.stopUs() > 0 && spec.stopUs() * 1000 < endNs) {
            queue.arm(slotStop, spec.stopUs() * 1000, PRIO_TASK);
        }
        while (!queue.isEmpty()) {
            int slot = queue.peek();
            long t = queue.when(slot);
            queue.poll();
            now = t;
            if (slot == slotEnd) {
                break;
            }
            dispatch(slot);
            processResched();
            events++;
            if ((events & 4095) == 0) {
                if (events > eventBudget) {
                    throw new BudgetExceededException(eventBudget);
                }
                control.progress(now / 1000, events);
                if (control.cancelled()) {
                    throw new RunCancelledException();
                }
            }
            if (allFinite && finiteLeft == 0) {
                break;
            }
        }
        return finish();
    }

    private void dispatch(int slot) {
        if (slot < slotRunEnd) {
            tick(cpus[slot - slotTick]);
        } else if (slot < slotIdleExit) {
            segmentDone(cpus[slot - slotRunEnd]);
        } else if (slot < slotTask) {
            int c = slot - slotIdleExit;
            idleExitDone[c] = true;
            resched(cpus[c]);
        } else if (slot < slotGroup) {
            Task task = tasks[slot - slotTask];
            if (task.state == Task.SLEEPING) {
                wakeTask(task, task.cpu, false);
            } else if (task.state == Task.NEW) {
                start(task, task.cpu);
            }
        } else if (slot == slotStop) {
            stopAll();
        } else {
            int g = (slot - slotGroup) >> 1;
            if (((slot - slotGroup) & 1) == 0) {
                bandwidth.periodTimer(groups[g].bw);
            } else {
                bandwidth.slackTimer(groups[g].bw);
            }
        }
    }

    void arm(int slot, long time, int prio) {
        queue.arm(slot, time, prio);
    }

    int periodSlot(TaskGroup g) {
        return slotGroup + 2 * g.index;
    }

    static int periodPriority() {
        return PRIO_PERIOD;
    }

    static int slackPriority() {
        return PRIO_SLACK;
    }

    // ------------------------------------------------------------------------------------------------
    // resched_curr() and schedule()

    void resched(Cpu cpu) {
        if (cpu.needResched) {
            return;
        }
        cpu.needResched = true;
        resched[(reschedHead + reschedSize++) % ncpu] = cpu.id;
    }

    private void processResched() {
        while (reschedSize > 0) {
            int c = resched[reschedHead];
            reschedHead = (reschedHead + 1) % ncpu;
            reschedSize--;
            Cpu cpu = cpus[c];
            cpu.needResched = false;
            schedule(cpu);
        }
    }

    /** __schedule(): put the previous task back (or park it), pick the next, switch. */
    private void schedule(Cpu cpu) {
        Task prev = cpu.curr;
        throttledInPutPrev = false;
        if (prev != null) {
            updateCurr(cpu);
            updateWork(cpu);
            updateTaskPelt(prev);
            prev.lastRanNs = now;
            leaveCache(cpu, prev);
            if (taskThrottle && prev.se.cfsRq.throttleCount > 0) {
                // throttle_cfs_rq_work(): the task reached its return to user in a throttled hierarchy.
                park(prev);
                prev.contextSwitches++;
                recorder.slice(cpu.id, prev, cpu.sliceStart, now);
                setCpuCurr(cpu, null);
                prev = null;
                queue.cancel(slotRunEnd + cpu.id);
            } else {
                putPrev(prev);
            }
        } else if (!cpu.busy && !idleExitDone[cpu.id] && cpu.root.nr > 0) {
            // Leaving idle costs the idle state's exit latency before anything runs.
            long lat = idleExitLatency(cpu);
            if (lat > 0) {
                if (!queue.armed(slotIdleExit + cpu.id)) {
                    queue.arm(slotIdleExit + cpu.id, now + lat, PRIO_IDLE_EXIT);
                }
                return;
            }
        }
        if (queue.armed(slotIdleExit + cpu.id)) {
            return;
        }
        Task next = pickNext(cpu);
        if (next == null && cpu.root.nr == 0) {
            // pick_next_task_fair() → sched_balance_newidle(), then pick again if it pulled.
            if (balancer.newidle(cpu, throttledInPutPrev) > 0 || cpu.root.nr > 0) {
                next = pickNext(cpu);
            }
        }
        idleExitDone[cpu.id] = false;
        if (next == null) {
            if (prev != null) {
                prev.contextSwitches++;
                contextSwitches++;
                recorder.slice(cpu.id, prev, cpu.sliceStart, now);
                setCpuCurr(cpu, null);
            }
            if (cpu.busy) {
                goIdle(cpu);
            }
            return;
        }
        if (prev != next) {
            if (prev != null) {
                prev.contextSwitches++;
                recorder.slice(cpu.id, prev, cpu.sliceStart, now);
            }
            contextSwitches++;
        }
        switchTo(cpu, next);
    }

    private long idleExitLatency(Cpu cpu) {
        long idleFor = now - cpu.idleSince;
        return idleFor >= hw.deepIdleResidencyNs() ? hw.deepIdleExitNs() : hw.shallowIdleExitNs();
    }

    /** put_prev_task_fair(): put_prev_entity() bottom-up; before 6.18 this is where throttling happens. */
    private void putPrev(Task prev) {
        bandwidthHooks(cpus[prev.cpu], prev.group.depth + 1);
        for (Entity se = prev.se; se != null; se = se.parent) {
            CfsRq q = se.cfsRq;
            if (!taskThrottle && !q.throttled && bandwidth.checkCfsRqRuntime(q)) {
                throttledInPutPrev = true;
            }
            if (q.curr == se) {
                q.setCurr(null);
            }
        }
        prev.state = Task.RUNNABLE;
    }

    /** pick_next_task_fair() / pick_task_fair(): walk down the hierarchy picking at each level. */
    private Task pickNext(Cpu cpu) {
        for (int guard = 0; guard < 1_000_000; guard++) {
            CfsRq q = cpu.root;
            if (q.nr == 0) {
                return null;
            }
            boolean throttled = false;
            Entity se;
            while (true) {
                if (taskThrottle) {
                    throttled |= bandwidth.checkCfsRqRuntime(q);
                }
                se = eevdf ? Fair.pickEevdf(q) : Fair.pickCfs(q);
                if (se.task != null) {
                    break;
                }
                q = se.my;
            }
            Task p = se.task;
            if (taskThrottle && (throttled || p.se.cfsRq.throttleCount > 0)) {
                // task_throttle_setup_work(): parked as soon as it returns to user.
                p.contextSwitches++;
                contextSwitches++;
                park(p);
                continue;
            }
            setNext(p);
            if (taskThrottle && p.se.cfsRq.throttleCount > 0) {
                clearCurr(p);
                p.contextSwitches++;
                contextSwitches++;
                park(p);
                continue;
            }
            return p;
        }
        throw new IllegalStateException("pick loop did not converge on CPU " + cpu.id);
    }

    /** set_next_task_fair(): set_next_entity() and account_cfs_rq_runtime(cfs_rq, 0) on every level. */
    private void setNext(Task p) {
        lruMoveToHead(cpus[p.cpu], p);
        for (Entity se = p.se; se != null; se = se.parent) {
            CfsRq q = se.cfsRq;
            q.setCurr(se);
            se.prevSumExec = se.sumExec;
            se.protectDeadline = se.deadline;
            if (q.runtimeEnabled) {
                bandwidth.account(q, 0);
            }
        }
    }

    private void clearCurr(Task p) {
        for (Entity se = p.se; se != null; se = se.parent) {
            if (se.cfsRq.curr == se) {
                se.cfsRq.setCurr(null);
            }
        }
    }

    private void switchTo(Cpu cpu, Task next) {
        updateCpuPelt(cpu);
        updateTaskPelt(next);
        if (!cpu.busy) {
            cpu.busy = true;
            cpu.lastBusyStart = now;
            balancer.llcBusy[topo.llcOf(cpu.id)]++;
            setCoreBusy(cpu.core, coreBusy[cpu.core] + 1);
        }
        if (next.wakeTime >= 0) {
            // The kernel side of the sleep and the wakeup, in the task's own time.
            updateWork(cpu);
            cpu.overheadDebt += hw.wakeKernelNs();
        }
        if (cpu.curr != next) {
            cpu.sliceStart = now;
        }
        boolean switched = cpu.lastRan != next;
        if (switched) {
            cpu.lastRan = next;
        }
        setCpuCurr(cpu, next);
        next.state = Task.RUNNING;
        cpu.execClock = now;
        cpu.workSince = now;
        if (switched) {
            // context_switch(): the switch itself, then the cache refill the new task pays here.
            chargeOverhead(cpu, hw.contextSwitchNs());
            refillCache(cpu, next);
        }
        if (next.wakeTime >= 0) {
            next.workload.recordLatency(Math.max(0, now - next.wakeTime));
            next.wakeTime = -1;
        }
        startSpin(cpu, next);
        armRunEnd(cpu);
        if (!queue.armed(slotTick + cpu.id)) {
            cpu.nextTick = (now / tickNs + 1) * tickNs;
            queue.arm(slotTick + cpu.id, cpu.nextTick, PRIO_TICK);
        }
    }

    private void goIdle(Cpu cpu) {
        updateCpuPelt(cpu);
        if (balancer.idleStamp[cpu.id] == 0) {
            balancer.idleStamp[cpu.id] = now;
        }
        cpu.busy = false;
        balancer.llcBusy[topo.llcOf(cpu.id)]--;
        queue.cancel(slotTick + cpu.id);
        queue.cancel(slotRunEnd + cpu.id);
        cpu.busyNs += now - cpu.lastBusyStart;
        recorder.add(recorder.busyNs, cpu.lastBusyStart, now);
        cpu.idleSince = now;
        setCoreBusy(cpu.core, coreBusy[cpu.core] - 1);
        placement.updateIdleCore(cpu.id);
    }

    // ------------------------------------------------------------------------------------------------
    // The machine: SMT throughput and power

    /** Changes a core's busy-thread count: settles each sibling's work at the old rate, re-arms it. */
    private void setCoreBusy(int core, int k) {
        int old = coreBusy[core];
        accountCorePower(core, old);
        if (old == 0 && k > 0) {
            accountIdleEnergy(core);
        }
        coreBusy[core] = k;
        if (k == 0) {
            coreIdleFrom[core] = now;
        }
        if (topo.threadsPerCore() == 1) {
            return;
        }
        int rate = k == 0 ? 1024 : rateOfK[k];
        for (int c : topo.siblingsOfCore(core)) {
            Cpu s = cpus[c];
            if (s.curr != null) {
                updateWork(s);
                s.rate = rate;
                armRunEnd(s);
            } else {
                s.rate = rate;
            }
        }
    }

    private void accountCorePower(int core, int busy) {
        long dt = now - coreSince[core];
        coreSince[core] = now;
        if (busy > 0 && dt > 0) {
            coreEnergyJ[core] += (hw.coreBusyWatts() + hw.smtThreadWatts() * (busy - 1)) * dt * 1e-9;
        }
    }

    private void accountIdleEnergy(int core) {
        long idle = now - coreIdleFrom[core];
        long shallow = Math.min(idle, hw.deepIdleResidencyNs());
        coreEnergyJ[core] += hw.coreIdleWatts() * shallow * 1e-9 + hw.deepIdleWatts() * (idle - shallow) * 1e-9;
    }

    /** Settles the work curr did since the last settlement at the CPU's current rate. */
    private void updateWork(Cpu cpu) {
        Task p = cpu.curr;
        long elapsed = now - cpu.workSince;
        cpu.workSince = now;
        if (p == null || elapsed <= 0) {
            return;
        }
        long absorbed = Math.min(elapsed, cpu.overheadDebt);
        cpu.overheadDebt -= absorbed;
        elapsed -= absorbed;
        long done = (elapsed * cpu.rate) >> 10;
        p.workDoneNs += done;
        if (!p.infinite) {
            p.remainingWork -= done;
        }
    }

    /** rq->curr = t, keeping the wakeup scans' idle cpumasks in step (a CPU with queued tasks stays non-idle). */
    private void setCpuCurr(Cpu cpu, Task t) {
        cpu.curr = t;
        if (cpu.nrRunning == 0) {
            placement.syncIdle(cpu);
        }
    }

    /** usec_spin() reads the clock when it starts: a spin's end is fixed the first time the task runs it. */
    private void startSpin(Cpu cpu, Task p) {
        if (p.spinNs > 0 && p.spinUntil < 0) {
            p.spinUntil = now + cpu.overheadDebt + p.spinNs;
        }
    }

    /** The running segment is over: its work is done, or (a spin) its wall time is up. */
    private static boolean segmentOver(Task p, long now) {
        if (p.spinNs > 0) {
            return now >= p.spinUntil;
        }
        return p.remainingWork <= 0 || p.infinite;
    }

    private void armRunEnd(Cpu cpu) {
        Task p = cpu.curr;
        if (p.spinNs > 0) {
            queue.arm(slotRunEnd + cpu.id, Math.max(now + cpu.overheadDebt, p.spinUntil), PRIO_RUN_END);
            return;
        }
        if (p.infinite) {
            queue.cancel(slotRunEnd + cpu.id);
            return;
        }
        long rem = Math.max(0, p.remainingWork);
        long dt = ((rem << 10) + cpu.rate - 1) / cpu.rate + cpu.overheadDebt;
        queue.arm(slotRunEnd + cpu.id, now + dt, PRIO_RUN_END);
    }

    // ------------------------------------------------------------------------------------------------
    // rq->nr_running, PELT, rq->cfs_tasks

    /** add_nr_running() / sub_nr_running(), keeping rd->overloaded (CPUs with more than one task). */
    void addNrRunning(Cpu cpu, int delta) {
        int before = cpu.nrRunning;
        cpu.nrRunning += delta;
        if (before == 0 || cpu.nrRunning == 0) {
            placement.syncIdle(cpu);
        }
        balancer.cpuNr[cpu.id] = cpu.nrRunning;
        if (before <= 1 && cpu.nrRunning > 1) {
            balancer.overloadedCpus++;
        } else if (before > 1 && cpu.nrRunning <= 1) {
            balancer.overloadedCpus--;
        }
    }

    /** update_load_avg() of the root cfs_rq: integrate its signal up to now before it changes. */
    void updateCpuPelt(Cpu cpu) {
        Pelt pelt = cpu.pelt;
        if (!pelt.update(now, cpu.root.load, cpu.root.hNrRunning, cpu.busy)) {
            return; // (the averages are what they were)
        }
        balancer.cpuLoad[cpu.id] = pelt.loadAvg();
        balancer.cpuUtil[cpu.id] = pelt.utilAvg();
        balancer.cpuRunnable[cpu.id] = pelt.runnableAvg();
    }

    /** update_load_avg() of a task entity. */
    private void updateTaskPelt(Task p) {
        boolean queued = p.se.onRq;
        p.pelt.update(now, queued ? p.se.weight : 0, queued ? 1 : 0, p.state == Task.RUNNING);
    }

    /**
     * update_blocked_averages(): decay every cfs_rq on the CPU's leaf list. Its cost grows with the
     * number of cfs_rqs that had tasks recently (fully decayed ones leave the list after ~LOAD_AVG_MAX
     * periods; modelled as 32 PELT half-lives). Charged to the CPU; returns the cost.
     */
    long updateBlockedAverages(int cpuId, boolean charge) {
        Cpu cpu = cpus[cpuId];
        updateCpuPelt(cpu);
        // __update_blocked_fair(): walk the leaf list, list_del_leaf_cfs_rq() the decayed ones.
        int leaves = 1;
        CfsRq[] leaf = cpu.leaf;
        for (int i = 0; i < cpu.nLeaf; ) {
            CfsRq q = leaf[i];
            if (q.nr > 0 || now - q.lastActiveNs < LEAF_RETENTION_NS) {
                leaves++;
                i++;
            } else {
                q.onLeafList = false;
                leaf[i] = leaf[--cpu.nLeaf];
                leaf[cpu.nLeaf] = null;
            }
        }
        long cost = hw.blockedAveragesPerCfsRqNs() * leaves;
        if (charge) {
            chargeOverhead(cpu, cost);
        }
        return cost;
    }

    /** A cfs_rq stays on the leaf list this long after it last had tasks (its PELT has decayed away). */
    static final long LEAF_RETENTION_NS = 345_000_000L;

    /** task_h_load(): the task's weight as seen from the root, through each group's share. */
    long taskHLoad(Task p) {
        long w = p.se.weight;
        for (Entity se = p.se; se.parent != null; se = se.parent) {
            CfsRq q = se.cfsRq;
            w = q.load == 0 ? w : w * se.parent.weight / q.load;
        }
        return w;
    }

    private void lruAddHead(Cpu cpu, Task p) {
        p.lruPrev = -1;
        p.lruNext = cpu.lruHead;
        if (cpu.lruHead >= 0) {
            tasks[cpu.lruHead].lruPrev = p.id;
        } else {
            cpu.lruTail = p.id;
        }
        cpu.lruHead = p.id;
        p.onLru = true;
    }

    private void lruRemove(Cpu cpu, Task p) {
        if (!p.onLru) {
            return;
        }
        if (p.lruPrev >= 0) {
            tasks[p.lruPrev].lruNext = p.lruNext;
        } else {
            cpu.lruHead = p.lruNext;
        }
        if (p.lruNext >= 0) {
            tasks[p.lruNext].lruPrev = p.lruPrev;
        } else {
            cpu.lruTail = p.lruPrev;
        }
        p.lruPrev = -1;
        p.lruNext = -1;
        p.onLru = false;
    }

    /** list_move(&p->se.group_node, &rq->cfs_tasks): to the head (nothing to do when it is there). */
    private void lruMoveToHead(Cpu cpu, Task p) {
        if (cpu.lruHead == p.id) {
            return;
        }
        lruRemove(cpu, p);
        lruAddHead(cpu, p);
    }

    /** rq->cfs_tasks, least recently run first (detach_tasks() walks it from the tail). */
    Task lruTail(Cpu cpu) {
        return cpu.lruTail < 0 ? null : tasks[cpu.lruTail];
    }

    Task lruPrev(Task p) {
        return p.lruPrev < 0 ? null : tasks[p.lruPrev];
    }

    // ------------------------------------------------------------------------------------------------
    // Migration

    /** move_queued_task() as load balancing does it: dequeue here, enqueue there, check preemption. */
    void migrate(Task p, int dst) {
        dequeueTask(p, false);
        p.lastDequeueTime = 0;
        p.migrations++;
        migrations++;
        enqueueTask(p, dst, 0);
        checkPreemptWakeup(cpus[dst], p);
    }

    /** The stopper of active balancing preempts the running task and pushes it to dst. */
    void preemptAndMigrate(Cpu src, Task p, int dst) {
        updateCurr(src);
        updateWork(src);
        updateTaskPelt(p);
        putPrev(p);
        p.lastRanNs = now;
        p.contextSwitches++;
        contextSwitches++;
        recorder.slice(src.id, p, src.sliceStart, now);
        setCpuCurr(src, null);
        queue.cancel(slotRunEnd + src.id);
        leaveCache(src, p);
        migrate(p, dst);
        resched(src);
    }

    // ------------------------------------------------------------------------------------------------
    // Cache

    private void leaveCache(Cpu cpu, Task p) {
        p.cacheCpu = cpu.id;
        p.cacheMark = cpu.kbTouched;
    }

    /**
     * The refill a task pays when it starts on a CPU: its footprint if it moved (more the further), or the
     * part of it other tasks evicted since it last ran here. The task's work stalls for that long.
     */
    private void refillCache(Cpu cpu, Task p) {
        int fp = p.workload.footprintKb;
        long[] perKb = refillNsPerKb;
        long cost;
        if (p.cacheCpu < 0) {
            cost = fp * perKb[1];
        } else if (p.cacheCpu == cpu.id) {
            long evicted = Math.min(fp, cpu.kbTouched - p.cacheMark);
            cost = evicted * perKb[1];
        } else {
            int d = topo.distance(p.cacheCpu, cpu.id);
            cost = fp * perKb[d];
        }
        cpu.kbTouched += fp;
        if (cost > 0) {
            updateWork(cpu);
            cpu.overheadDebt += cost;
        }
    }

    // ------------------------------------------------------------------------------------------------
    // Overheads

    /**
     * Scheduler work done on a CPU: it is CPU time of whatever runs there (the kernel charges it to the
     * current task) but the task's own work makes no progress meanwhile.
     */
    void chargeOverhead(Cpu cpu, long ns) {
        if (ns <= 0) {
            return;
        }
        cpu.overheadNs += ns;
        if (cpu.curr != null) {
            // Settle the work done so far first: the overhead delays what comes after now.
            updateWork(cpu);
            cpu.overheadDebt += ns;
        }
    }

    /**
     * The cost of one pass through the bandwidth hooks (account_cfs_rq_runtime, check_cfs_rq_runtime,
     * check_enqueue_throttle, return_cfs_rq_runtime): nothing when BANDWIDTH_STATIC_KEY patches them out
     * because no group has a quota (seed 001 patch 1), else the hardware model's bandwidthHookNs.
     */
    private void bandwidthHooks(Cpu cpu, int levels) {
        chargeOverhead(cpu, bandwidthHooksNs(levels));
    }

    private long bandwidthHooksNs(int levels) {
        return staticKey && !bandwidth.used ? 0 : hw.bandwidthHookNs() * levels;
    }

    // ------------------------------------------------------------------------------------------------
    // update_curr() and the tick

    /** update_curr() on every level of the running task's hierarchy. */
    void updateCurr(Cpu cpu) {
        Task p = cpu.curr;
        if (p == null) {
            return;
        }
        long delta = now - cpu.execClock;
        if (delta <= 0) {
            return;
        }
        cpu.execClock = now;
        p.cpuNs += delta;
        for (TaskGroup g = p.group; g != null; g = g.parent) {
            g.usageNs += delta;
            recorder.add(recorder.usageNs[g.index], now - delta, now);
        }
        // update_curr() itself runs once per level of the hierarchy, and so do the bandwidth hooks.
        int levels = p.group.depth + 1;
        chargeOverhead(cpu, hw.updateCurrNs() * levels + bandwidthHooksNs(levels));
        for (Entity se = p.se; se != null; se = se.parent) {
            CfsRq q = se.cfsRq;
            se.sumExec += delta;
            long dv = Fair.calcDelta(delta, se.weight);
            if (se.onRq) {
                q.keyChanging(se);
                q.sumWv += se.weight * dv;
            }
            se.vruntime += dv;
            if (eevdf && se.vruntime >= se.deadline) {
                // update_deadline()
                se.deadline = se.vruntime + Fair.calcDelta(se.slice, se.weight);
                if (q.nr > 1) {
                    resched(cpu);
                }
            }
            if (se.onRq) {
                q.keyChanged(se);
            }
            Fair.updateMinVruntime(q);
            if (q.runtimeEnabled) {
                bandwidth.account(q, delta);
            }
        }
    }

    /** sched_tick(): update_curr and update_cfs_group on every level, then the preemption check. */
    private void tick(Cpu cpu) {
        Task p = cpu.curr;
        if (p != null) {
            updateCurr(cpu);
            for (Entity se = p.se; se != null; se = se.parent) {
                if (se.my != null) {
                    updateGroupWeight(se);
                }
                if (!eevdf && se.cfsRq.nr > 1) {
                    checkPreemptTick(cpu, se.cfsRq, se);
                }
            }
        }
        updateCpuPelt(cpu);
        if (p != null) {
            updateTaskPelt(p);
        }
        cpu.nextTick += tickNs;
        queue.arm(slotTick + cpu.id, cpu.nextTick, PRIO_TICK);
        // sched_balance_trigger(): the SCHED_SOFTIRQ runs right after the tick.
        balancer.trigger(cpu);
    }

    /** CFS check_preempt_tick() (6.1). */
    private void checkPreemptTick(Cpu cpu, CfsRq q, Entity curr) {
        long ideal = cfsSlice(q, curr);
        long ran = curr.sumExec - curr.prevSumExec;
        if (ran > ideal) {
            resched(cpu);
            return;
        }
        if (ran < cfsMinGranNs) {
            return;
        }
        Entity left = Fair.leftmostExceptCurr(q);
        if (left != null && curr.vruntime - left.vruntime > ideal) {
            resched(cpu);
        }
    }

    /** CFS sched_slice(): the period share of se at every level (ALT_PERIOD, BASE_SLICE). */
    private long cfsSlice(CfsRq q, Entity se) {
        int nr = cpus[q.cpu].root.hNrRunning + (se.onRq ? 0 : 1);
        long slice = nr > 8 ? nr * cfsMinGranNs : cfsLatencyNs;
        for (Entity e = se; e != null; e = e.parent) {
            CfsRq cq = e.cfsRq;
            long load = cq.load + (e.onRq ? 0 : e.weight);
            if (load > 0) {
                slice = slice * e.weight / load;
            }
        }
        return Math.max(slice, cfsMinGranNs);
    }

    // ------------------------------------------------------------------------------------------------
    // Group shares

    /** update_cfs_group() with calc_group_shares() on instantaneous run-queue weights. */
    void updateGroupWeight(Entity se) {
        CfsRq my = se.my;
        TaskGroup tg = my.tg;
        long shares;
        if (tg.totalLoad > 0) {
            shares = tg.shares * my.load / tg.totalLoad;
        } else {
            shares = tg.shares;
        }
        shares = Math.max(Fair.MIN_SHARES, Math.min(shares, tg.shares));
        reweight(se, shares);
    }

    /** reweight_entity(): keeps the entity's lag and relative deadline across a weight change. */
    private void reweight(Entity se, long w) {
        long old = se.weight;
        if (w == old) {
            return;
        }
        if (se.onRq) {
            CfsRq q = se.cfsRq;
            long v = eevdf ? Fair.avgVruntime(q) : 0;
            q.sumWv -= old * (se.vruntime - q.minVruntime);
            if (eevdf) {
                long lag = v - se.vruntime;
                long rel = se.deadline - se.vruntime;
                q.keyChanging(se);
                se.vruntime = v - lag * old / w;
                se.deadline = se.vruntime + rel * old / w;
                q.keyChanged(se);
                if (se.protectDeadline != Long.MIN_VALUE && q.curr == se) {
                    se.protectDeadline = se.deadline;
                }
            }
            q.load += w - old;
            q.sumWv += w * (se.vruntime - q.minVruntime);
            if (!q.tg.isRoot()) {
                q.tg.totalLoad += w - old;
            }
        } else if (eevdf) {
            se.vlag = se.vlag * old / w;
        }
        se.weight = w;
    }

    // ------------------------------------------------------------------------------------------------
    // Enqueue / dequeue

    /** enqueue_task_fair(). */
    void enqueueTask(Task p, int cpuId, int flags) {
        Cpu cpu = cpus[cpuId];
        bandwidthHooks(cpu, p.group.depth + 1);
        updateCpuPelt(cpu);
        updateTaskPelt(p);
        lruAddHead(cpu, p);
        Entity se = p.se;
        // (stored only when they change: a reference store costs a garbage-collector write barrier)
        CfsRq rq = p.group.rq[cpuId];
        if (se.cfsRq != rq) {
            se.cfsRq = rq;
            se.parent = p.group.isRoot() ? null : p.group.se[cpuId];
        }
        p.cpu = cpuId;
        for (; se != null; se = se.parent) {
            if (se.onRq) {
                break;
            }
            CfsRq q = se.cfsRq;
            enqueueEntity(q, se, flags);
            q.hNrRunning++;
            if (!taskThrottle && q.throttled) {
                return;
            }
            flags = ENQUEUE_WAKEUP;
        }
        for (; se != null; se = se.parent) {
            CfsRq q = se.cfsRq;
            if (se.my != null) {
                updateGroupWeight(se);
            }
            q.hNrRunning++;
            if (!taskThrottle && q.throttled) {
                return;
            }
        }
        addNrRunning(cpus[cpuId], 1);
    }

    /** dequeue_task_fair(). */
    void dequeueTask(Task p, boolean sleep) {
        Entity se = p.se;
        int cpuId = p.cpu;
        Cpu cpu = cpus[cpuId];
        bandwidthHooks(cpu, p.group.depth + 1);
        updateCpuPelt(cpu);
        updateTaskPelt(p);
        lruRemove(cpu, p);
        boolean wasSleep = sleep;
        for (; se != null; se = se.parent) {
            CfsRq q = se.cfsRq;
            dequeueEntity(q, se, sleep);
            q.hNrRunning--;
            if (!taskThrottle && q.throttled) {
                return;
            }
            if (q.load != 0) {
                se = se.parent;
                break;
            }
            sleep = true;
        }
        for (; se != null; se = se.parent) {
            CfsRq q = se.cfsRq;
            if (se.my != null) {
                updateGroupWeight(se);
            }
            q.hNrRunning--;
            if (!taskThrottle && q.throttled) {
                return;
            }
        }
        addNrRunning(cpus[cpuId], -1);
        if (wasSleep) {
            sisCacheDequeue(p, cpus[cpuId]);
        }
    }

    /**
     * SIS_CACHE (seed 002, patch 2): remember when and where the task went to sleep; a short sleeper that
     * leaves its CPU empty marks it cache-hot for its average short sleep.
     */
    private void sisCacheDequeue(Task p, Cpu cpu) {
        p.lastDequeueTime = now;
        p.lastDequeueCpu = cpu.id;
        if (cpu.nrRunning == 0 && p.avgHotDur != 0) {
            cpu.cacheHotTimeout = Math.max(cpu.cacheHotTimeout, now + p.avgHotDur);
        }
    }

    /** SIS_CACHE at wakeup: update_avg(&avg_hot_dur, sleep) for sleeps under the migration cost. */
    private void sisCacheWakeup(Task p) {
        if (p.lastDequeueTime == 0) {
            return;
        }
        long sleep = now - p.lastDequeueTime;
        if (sleep < LoadBalancer.MIGRATION_COST) {
            p.avgHotDur += (sleep - p.avgHotDur) / 8;
        } else {
            p.avgHotDur >>= 1;
        }
    }

    /** enqueue_entity(): update the group weight, place, queue, check_enqueue_throttle. */
    void enqueueEntity(CfsRq q, Entity se, int flags) {
        if (se.my != null) {
            updateGroupWeight(se);
        }
        place(q, se, flags);
        q.add(se);
        se.onRq = true;
        if (q.nr == 1 && q.parent != null) {
            cpus[q.cpu].addLeaf(q);
        }
        q.load += se.weight;
        if (!q.tg.isRoot()) {
            q.tg.totalLoad += se.weight;
        }
        Fair.updateMinVruntime(q);
        if (q.nr == 1 && !taskThrottle) {
            bandwidth.checkEnqueueThrottle(q);
        }
    }

    /** dequeue_entity(): save lag, unqueue, return_cfs_rq_runtime. */
    void dequeueEntity(CfsRq q, Entity se, boolean sleep) {
        if (eevdf) {
            // update_entity_lag()
            long lag = Fair.avgVruntime(q) - se.vruntime;
            long limit = Fair.calcDelta(Math.max(2 * se.slice, tickNs), se.weight);
            se.vlag = Math.max(-limit, Math.min(limit, lag));
        } else {
            se.vlag = se.vruntime - q.minVruntime;
        }
        q.remove(se);
        se.onRq = false;
        if (q.curr == se) {
            q.setCurr(null);
        }
        if (q.nr == 0) {
            q.lastActiveNs = now;
        }
        q.load -= se.weight;
        if (!q.tg.isRoot()) {
            q.tg.totalLoad -= se.weight;
        }
        Fair.updateMinVruntime(q);
        bandwidth.returnRuntime(q);
    }

    /** place_entity(): EEVDF lag placement, or CFS min_vruntime placement with sleeper credit. */
    private void place(CfsRq q, Entity se, int flags) {
        boolean initial = se.fresh;
        se.fresh = false;
        if (eevdf) {
            long vslice = Fair.calcDelta(se.slice, se.weight);
            long v = Fair.avgVruntime(q);
            long lag = 0;
            if (q.nr > 0 && !initial) {
                lag = se.vlag;
                long load = q.load;
                if (load > 0) {
                    lag = lag * (load + se.weight) / load;
                }
            }
            se.vruntime = v - lag;
            if (initial) {
                vslice /= 2; // PLACE_DEADLINE_INITIAL
            }
            se.deadline = se.vruntime + vslice;
        } else {
            long v = q.minVruntime;
            if (initial) {
                // START_DEBIT: new tasks start one vslice late.
                se.vruntime = v + Fair.calcDelta(cfsSliceForNew(q, se), se.weight);
            } else {
                se.vruntime = v + se.vlag;
                if ((flags & ENQUEUE_WAKEUP) != 0) {
                    // GENTLE_FAIR_SLEEPERS: at most half a latency of sleeper credit.
                    se.vruntime = Math.max(se.vruntime, v - cfsLatencyNs / 2);
                }
            }
        }
    }

    private long cfsSliceForNew(CfsRq q, Entity se) {
        int nr = q.nr + 1;
        long slice = nr > 8 ? nr * cfsMinGranNs : cfsLatencyNs;
        return slice * se.weight / (q.load + se.weight);
    }

    // ------------------------------------------------------------------------------------------------
    // Tasks: start, segments, wakeups

    /** Every thread exits now (EngineSpec.stopUs): running ones leave their CPU, queued ones their queue. */
    private void stopAll() {
        for (Task p : tasks) {
            switch (p.state) {
                case Task.RUNNING: {
                    Cpu cpu = cpus[p.cpu];
                    updateCurr(cpu);
                    updateWork(cpu);
                    leaveCpu(cpu, p, WorkloadRun.EXIT);
                    break;
                }
                case Task.RUNNABLE:
                    dequeueTask(p, true);
                    handleStop(p, WorkloadRun.EXIT, p.cpu);
                    break;
                case Task.THROTTLED:
                    p.se.cfsRq.unpark(p);
                    handleStop(p, WorkloadRun.EXIT, p.cpu);
                    break;
                case Task.DONE:
                    break;
                default:
                    queue.cancel(slotTask + p.id);
                    handleStop(p, WorkloadRun.EXIT, p.cpu);
                    break;
            }
        }
    }

    /** A task created at time 0: wake_up_new_task() on the fork-balanced CPU. */
    private void start(Task p, int cpu) {
        int a = p.workload.next(this, p);
        if (a != WorkloadRun.RUN) {
            handleStop(p, a, cpu);
            return;
        }
        p.state = Task.RUNNABLE;
        enqueueTask(p, cpu, ENQUEUE_INITIAL);
        checkPreemptWakeup(cpus[cpu], p);
    }

    /** The running task's run segment ended: ask its program what it does next. */
    private void segmentDone(Cpu cpu) {
        Task p = cpu.curr;
        if (p == null) {
            return;
        }
        updateCurr(cpu);
        updateWork(cpu);
        if (!segmentOver(p, now)) {
            // Overhead charged since the segment end was armed delayed it.
            armRunEnd(cpu);
            return;
        }
        int a = p.workload.next(this, p);
        if (a == WorkloadRun.RUN) {
            startSpin(cpu, p);
            armRunEnd(cpu);
            return;
        }
        leaveCpu(cpu, p, a);
    }

    /** The running task blocks, sleeps or exits; the CPU stays busy until schedule() picks. */
    private void leaveCpu(Cpu cpu, Task p, int action) {
        p.lastRanNs = now;
        leaveCache(cpu, p);
        dequeueTask(p, true);
        clearCurr(p);
        recorder.slice(cpu.id, p, cpu.sliceStart, now);
        setCpuCurr(cpu, null);
        p.contextSwitches++;
        contextSwitches++;
        queue.cancel(slotRunEnd + cpu.id);
        handleStop(p, action, cpu.id);
        resched(cpu);
    }

    /** A task that does not run next: sleep on a timer, block, or exit. */
    private void handleStop(Task p, int action, int cpu) {
        switch (action) {
            case WorkloadRun.SLEEP:
                p.state = Task.SLEEPING;
                queue.arm(slotTask + p.id, now + p.auxLong, PRIO_TASK);
                break;
            case WorkloadRun.BLOCK:
                p.state = Task.BLOCKED;
                break;
            default:
                p.state = Task.DONE;
                WorkloadRun w = p.workload;
                if (--w.live == 0) {
                    w.completionNs = now;
                    if (w.finite) {
                        finiteLeft--;
                    }
                }
                break;
        }
    }

    /**
     * try_to_wake_up(): a blocked or sleeping task becomes runnable on the CPU select_task_rq_fair()
     * chooses; a task that is not asleep keeps the wake for its next block (like data left in a pipe).
     */
    void wakeTask(Task p, int wakerCpu, boolean sync) {
        if (p.state != Task.BLOCKED && p.state != Task.SLEEPING) {
            if (p.state != Task.DONE) {
                p.pendingWakes++;
            }
            return;
        }
        queue.cancel(slotTask + p.id);
        int a = p.workload.next(this, p);
        if (a != WorkloadRun.RUN) {
            handleStop(p, a, p.cpu);
            return;
        }
        p.wakeups++;
        wakeups++;
        Task waker = cpus[wakerCpu].curr;
        int cpu = placement.selectTaskRq(p, wakerCpu, waker, sync);
        if (cpu != p.cpu) {
            p.migrations++;
            migrations++;
        }
        p.state = Task.RUNNABLE;
        p.wakeTime = now;
        sisCacheWakeup(p);
        balancer.wokenFromIdle(cpu);
        enqueueTask(p, cpu, ENQUEUE_WAKEUP);
        checkPreemptWakeup(cpus[cpu], p);
    }

    /** Re-enqueues a task taken off a throttled cfs_rq's limbo list (unthrottle in 6.18). */
    void unpark(Task p) {
        p.state = Task.RUNNABLE;
        enqueueTask(p, p.cpu, ENQUEUE_WAKEUP);
    }

    /** throttle_cfs_rq_work(): dequeue the task onto its cfs_rq's limbo list; start the throttle clocks. */
    void park(Task p) {
        dequeueTask(p, true);
        clearCurr(p);
        p.state = Task.THROTTLED;
        p.se.cfsRq.park(p);
        bandwidth.recordThrottleClock(p.se.cfsRq);
    }

    /** check_preempt_wakeup_fair() at the level where the woken and current entities meet. */
    private void checkPreemptWakeup(Cpu cpu, Task p) {
        Task curr = cpu.curr;
        if (curr == null) {
            resched(cpu);
            return;
        }
        if (curr == p || !p.se.onRq) {
            return;
        }
        Entity se = curr.se;
        Entity pse = p.se;
        int ds = se.cfsRq.tg.depth;
        int dp = pse.cfsRq.tg.depth;
        while (ds > dp) {
            se = se.parent;
            ds--;
        }
        while (dp > ds) {
            pse = pse.parent;
            dp--;
        }
        while (se.cfsRq != pse.cfsRq) {
            se = se.parent;
            pse = pse.parent;
        }
        if (!pse.onRq) {
            return;
        }
        updateCurr(cpu);
        if (eevdf) {
            if (Fair.pickEevdf(se.cfsRq) == pse) {
                resched(cpu);
            }
        } else {
            long vdiff = se.vruntime - pse.vruntime;
            if (vdiff > Fair.calcDelta(cfsWakeupGranNs, pse.weight)) {
                resched(cpu);
            }
        }
    }

    // ------------------------------------------------------------------------------------------------
    // The report

    private Report finish() {
        for (Cpu cpu : cpus) {
            if (cpu.curr != null) {
                updateCurr(cpu);
                updateWork(cpu);
            }
            if (cpu.busy) {
                cpu.busyNs += now - cpu.lastBusyStart;
                recorder.add(recorder.busyNs, cpu.lastBusyStart, now);
            }
            if (cpu.curr != null) {
                recorder.slice(cpu.id, cpu.curr, cpu.sliceStart, now);
            }
        }
        for (int core = 0; core < coreBusy.length; core++) {
            if (coreBusy[core] > 0) {
                accountCorePower(core, coreBusy[core]);
            } else {
                accountIdleEnergy(core);
            }
        }
        long span = Math.max(1, now);
        List<Report.CgroupReport> cg = new ArrayList<>();
        for (TaskGroup g : groups) {
            Bandwidth b = g.bw;
            Report.CpuStat st = b == null
                    ? new Report.CpuStat(g.usageNs / 1000, 0, 0, 0, 0, 0)
                    : new Report.CpuStat(g.usageNs / 1000, b.nrPeriods, b.nrThrottled, b.throttledTime / 1000,
                            b.nrBurst, b.burstTime / 1000);
            cg.add(new Report.CgroupReport(g.path, st));
        }
        List<Report.WorkloadReport> wl = new ArrayList<>();
        for (WorkloadRun w : workloads) {
            long cpuNs = 0;
            long work = 0;
            long cs = 0;
            long mig = 0;
            long wk = 0;
            for (Task t : w.tasks) {
                cpuNs += t.cpuNs;
                work += t.workDoneNs;
                cs += t.contextSwitches;
                mig += t.migrations;
                wk += t.wakeups;
            }
            double units = w.spec.type() == dev.schedsim.engine.workload.WorkloadType.CPU_BOUND
                    ? work / 1e9 : w.units;
            double thr = units / (span / 1e9);
            long completion = w.completionNs >= 0 && w.finite ? w.completionNs / 1000 : -1;
            wl.add(new Report.WorkloadReport(w.spec.name(), cpuNs / 1000, completion, round3(thr),
                    latency(w.latency), cs, mig, wk, w.requestLatency == null ? null : latency(w.requestLatency)));
        }
        List<Double> per = new ArrayList<>(ncpu);
        long busy = 0;
        for (int c = 0; c < ncpu; c++) {
            busy += cpus[c].busyNs;
            per.add(round3(100.0 * cpus[c].busyNs / span));
        }
        double busyPct = 100.0 * busy / ((double) span * ncpu);
        double energy = 0;
        for (double e : coreEnergyJ) {
            energy += e;
        }
        long overhead = 0;
        for (Cpu cpu : cpus) {
            overhead += cpu.overheadNs;
        }
        double overheadPct = round3(100.0 * overhead / ((double) span * ncpu));
        Report.CpuReport cr = new Report.CpuReport(round3(busyPct), round3(100 - busyPct), overheadPct,
                round3(energy / (span / 1e9)), per);
        List<Report.LevelCost> costs = new ArrayList<>();
        for (int l = 0; l < topo.levels().size(); l++) {
            long n = balancer.newidleCostSamples[l];
            costs.add(new Report.LevelCost(topo.levels().get(l).name(), n == 0 ? 0 : balancer.newidleCostMin[l] / 1000.0,
                    n == 0 ? 0 : round3(balancer.newidleCostSum[l] / n / 1000.0),
                    n == 0 ? 0 : balancer.newidleCostMax[l] / 1000.0, n));
        }
        Report.SchedulerReport sr = new Report.SchedulerReport(contextSwitches, migrations, wakeups,
                balancer.loadBalances, balancer.newidleBalances, overheadPct, balancer.tasksMoved,
                balancer.activeBalances, placement.idleScans, placement.cpusScanned, balancer.serializeAttempts,
                round3(100.0 * balancer.serializeNs / ((double) span * ncpu)), costs);
        return new Report(now / 1000, events, cg, wl, cr, sr, recorder.timeSeries(groups, now),
                spec.trace() ? new Report.Trace(recorder.events, recorder.truncated) : null);
    }

    /** Percentiles (µs) of a histogram of ns. */
    private static Report.Latency latency(org.HdrHistogram.Histogram h) {
        if (h.getTotalCount() == 0) {
            return new Report.Latency(0, 0, 0, 0, 0, 0);
        }
        return new Report.Latency(h.getValueAtPercentile(50) / 1000.0, h.getValueAtPercentile(90) / 1000.0,
                h.getValueAtPercentile(99) / 1000.0, h.getValueAtPercentile(99.9) / 1000.0, h.getMaxValue() / 1000.0,
                h.getTotalCount());
    }

    private static double round3(double v) {
        return Math.round(v * 1000.0) / 1000.0;
    }
}
