package dev.schedsim.engine.core;

import dev.schedsim.engine.api.BudgetExceededException;
import dev.schedsim.engine.api.EngineSpec;
import dev.schedsim.engine.api.Report;
import dev.schedsim.engine.api.RunCancelledException;
import dev.schedsim.engine.api.RunControl;
import dev.schedsim.engine.balance.LoadBalance;
import dev.schedsim.engine.bandwidth.BandwidthHooks;
import dev.schedsim.engine.bandwidth.BandwidthPool;
import dev.schedsim.engine.bandwidth.CfsBandwidth;
import dev.schedsim.engine.bandwidth.FairBandwidth;
import dev.schedsim.engine.bandwidth.Throttle;
import dev.schedsim.engine.event.EventQueue;
import dev.schedsim.engine.event.SimClock;
import dev.schedsim.engine.event.Timers;
import dev.schedsim.engine.fair.FairPick;
import dev.schedsim.engine.fair.FairQueue;
import dev.schedsim.engine.fair.GroupShares;
import dev.schedsim.engine.fair.LoadTracking;
import dev.schedsim.engine.fair.Preemption;
import dev.schedsim.engine.fair.SisCache;
import dev.schedsim.engine.fair.UpdateCurr;
import dev.schedsim.engine.machine.CacheModel;
import dev.schedsim.engine.machine.Execution;
import dev.schedsim.engine.machine.IdleStates;
import dev.schedsim.engine.machine.MachineActivity;
import dev.schedsim.engine.machine.Power;
import dev.schedsim.engine.machine.Smt;
import dev.schedsim.engine.sched.Counters;
import dev.schedsim.engine.sched.Cpu;
import dev.schedsim.engine.sched.Resched;
import dev.schedsim.engine.sched.RqClock;
import dev.schedsim.engine.sched.RunQueues;
import dev.schedsim.engine.sched.Task;
import dev.schedsim.engine.sched.TaskGroup;
import dev.schedsim.engine.sched.TaskState;
import dev.schedsim.engine.sched.Tunables;
import dev.schedsim.engine.select.ForkBalance;
import dev.schedsim.engine.select.SelectIdleSibling;
import dev.schedsim.engine.select.SelectTaskRq;
import dev.schedsim.engine.spec.CgroupSpec;
import dev.schedsim.engine.spec.HardwareModel;
import dev.schedsim.engine.spec.KernelConfig;
import dev.schedsim.engine.spec.MachineNoise;
import dev.schedsim.engine.stats.Recorder;
import dev.schedsim.engine.topology.RootDomain;
import dev.schedsim.engine.topology.SchedDomainShared;
import dev.schedsim.engine.topology.Topology;
import dev.schedsim.engine.workload.Action;
import dev.schedsim.engine.workload.WorkloadRun;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * One run of the model: builds the machine, the kernel's mechanisms and the workloads from a spec (each mechanism
 * gets what it works with by its constructor), then runs the event loop — the next timer fires, its handler runs,
 * every CPU it marked for rescheduling runs schedule() — until the end, and assembles the report.
 *
 * <p><b>Determinism:</b> time is a long of nanoseconds; the only randomness is generators seeded from the
 * run's seed (the run's own, the machine noise's, {@link MachineActivity}, and NI_RANDOM's per-CPU ones in
 * {@code NewidleBalance}); events are ordered by (time, priority, sequence).
 *
 * <p>See docs/model.md for the map of the engine's packages.
 */
public final class Simulation {
    private final EngineSpec spec;
    private final long eventBudget;
    private final RunControl control;
    private final SimClock clock = new SimClock();
    private final Timers timers;
    private final Topology topo;
    private final Cpu[] cpus;
    private final TaskGroup[] groups;
    private final Task[] tasks;
    private final WorkloadRun[] workloads;
    private final Recorder recorder;
    private final Counters counters = new Counters();
    private final Execution execution;
    private final UpdateCurr updateCurr;
    private final Power power;
    private final Smt smt;
    private final BandwidthPool pool;
    private final Throttle throttle;
    private final SelectIdleSibling selectIdle;
    private final ForkBalance forkBalance;
    private final LoadBalance balance;
    private final Scheduler scheduler;
    private final Wakeup wakeup;
    private final HrtimerBases hrtimers;
    private final HrtimerInterrupt hrtimerInterrupt;
    private final Lifecycle lifecycle;
    private final Tick tick;
    private final MachineActivity activity;
    private final HostStalls hostStalls;
    private final WarmupPlan warmup;
    /** The next of {@link WarmupPlan#boundaries} to come. */
    private int nextBoundary;
    /** The energy of the warm-up runs (subtracted from the report's). */
    private double warmupEnergyJ;
    private long events;

    public Simulation(EngineSpec spec, long seed, long eventBudget, RunControl control) {
        this.spec = spec;
        this.eventBudget = eventBudget;
        this.control = control;
        KernelConfig kernel = spec.kernel();
        this.topo = new Topology(spec.topology());
        HardwareModel hw = topo.hardware();
        SplittableRandom rnd = new SplittableRandom(seed);
        int ncpu = topo.cpuCount();
        Tunables tunables = Tunables.of(kernel, ncpu);
        this.warmup = new WarmupPlan(spec);
        int threads = (int) spec.threadCount() * (1 + warmup.runs);
        for (MachineNoise.Background b : hw.noise().background()) {
            threads += b.threads();
        }
        this.timers = new Timers(ncpu, threads, warmup.cgroups.size());
        this.groups = SimulationSetup.taskGroups(warmup.cgroups, ncpu, tunables.baseSliceNs());
        this.cpus = SimulationSetup.cpus(kernel, topo, groups[0]);
        this.tasks = new Task[threads];
        this.recorder = new Recorder(spec.durationUs() * 1000, groups.length, spec.trace());
        Resched resched = new Resched(cpus);

        // The machine, the shared domain state and the run queues' bookkeeping.
        RqClock rqClock = new RqClock(clock);
        this.execution = new Execution(kernel, clock, timers, rqClock);
        MachineActivity activity = new MachineActivity(hw.noise(), seed, timers, execution);
        this.power = new Power(clock, hw, topo.coreCount());
        this.smt = new Smt(cpus, topo, hw, execution, power);
        CacheModel cache = new CacheModel(topo, hw, execution);
        SchedDomainShared shared = new SchedDomainShared(topo);
        RootDomain rd = new RootDomain();
        RunQueues rqs = new RunQueues(cpus, tasks, shared, rd);
        LoadTracking pelt = new LoadTracking(cpus, clock, execution, hw);

        // The fair class and bandwidth control: fair asks bandwidth through fair.Bandwidth; bandwidth reaches into
        // the fair class's queues (wired after construction).
        BandwidthHooks hooks = new BandwidthHooks(kernel, hw, execution);
        this.pool = new BandwidthPool(kernel, clock, timers, rnd, hooks, cpus, recorder);
        this.throttle = new Throttle(kernel, clock, pool, hooks, cpus, resched, pelt, recorder);
        FairBandwidth fairBandwidth = new FairBandwidth(hooks, throttle, pool);
        this.updateCurr = new UpdateCurr(kernel, hw, clock, timers, rqClock, execution, fairBandwidth, recorder,
                resched);
        GroupShares shares = new GroupShares(kernel);
        SisCache sisCache = new SisCache(kernel, clock);
        FairQueue fairQueue = new FairQueue(kernel, tunables, clock, rqs, pelt, fairBandwidth, shares,
                sisCache, updateCurr);
        FairPick fairPick = new FairPick(kernel, rqs, fairBandwidth, counters, fairQueue, clock, recorder);
        Preemption preemption = new Preemption(kernel, tunables, rqs, updateCurr, resched, fairQueue);
        throttle.wire(fairQueue, fairPick, updateCurr);
        pool.wire(throttle, updateCurr);

        // Placement, migration and load balancing.
        this.selectIdle = new SelectIdleSibling(kernel, hw, cpus, topo, shared, clock, execution, sisCache);
        SelectTaskRq select = new SelectTaskRq(kernel, cpus, topo, clock, pelt, selectIdle);
        this.forkBalance = new ForkBalance(topo);
        ContextSwitch contextSwitch = new ContextSwitch(clock, timers, rqs, recorder);
        Migration migration = new Migration(clock, rqs, fairQueue, fairPick, preemption, updateCurr, execution,
                pelt, cache, contextSwitch, resched, counters, recorder);
        this.balance = new LoadBalance(kernel, hw, topo, cpus, clock, rqs, rd, shared, pelt, execution, migration,
                seed);

        // The core paths.
        this.hrtimers = new HrtimerBases(clock, timers, ncpu, hw.hrtimerReprogramNs() > 0);
        this.hostStalls = new HostStalls(clock, timers, execution, rqClock, hrtimers, activity, resched);
        this.scheduler = new Scheduler(kernel, hw, clock, timers, resched, hostStalls,
                new Scheduler.Paths(rqs, contextSwitch, counters, updateCurr, fairPick, throttle, balance.newidle()),
                new Scheduler.Machine(topo, shared, execution, rqClock, cache, smt, new IdleStates(clock, hw), pelt,
                        recorder, activity));

        this.hrtimerInterrupt = new HrtimerInterrupt(clock, timers, hrtimers, execution, cpus, hw.hrtimerIrqNs());
        this.wakeup = new Wakeup(clock, hrtimers, rnd, cpus, select, sisCache, fairQueue, preemption, counters,
                kernel.tickNs(), recorder, new WakeIpi(hw.ipiDeliveryNs()));
        this.lifecycle = new Lifecycle(clock, hrtimers, tasks, cpus, updateCurr, execution, fairQueue, fairPick, cache,
                contextSwitch, resched, activity);
        this.activity = activity;
        wakeup.wire(lifecycle);
        this.tick = new Tick(kernel, clock, timers, updateCurr, shares, preemption, pelt, balance.periodic());
        this.workloads = SimulationSetup.workloads(spec, warmup, groups, tasks, wakeup, tunables, ncpu, hw.noise(),
                activity);
    }

    /**
     * Cgroup configuration happens at time 0, before any task starts (tg_set_cfs_bandwidth()); after warm-up runs,
     * each run's cgroups at its start ({@link #boundary}).
     */
    public void configureCgroups() {
        for (int i = 0; i < groups.length; i++) {
            if (warmup.configuredAtStart(i)) {
                configure(i);
            }
        }
    }

    private void configure(int i) {
        CgroupSpec c = warmup.cgroups.get(i);
        if (c.limited()) {
            pool.tgSetCfsBandwidth(groups[i], c);
        }
    }

    public Report run() {
        configureCgroups();
        lifecycle.countFinite(workloads, spec.workloads().size());
        startTasks();
        scheduler.scheduleMarked();
        long endNs = warmup.originNs + spec.durationUs() * 1000;
        timers.arm(timers.end(), endNs, Timers.PRIO_END);
        if (spec.stopUs() > 0 && spec.stopUs() * 1000 < spec.durationUs() * 1000) {
            timers.arm(timers.stop(), warmup.originNs + spec.stopUs() * 1000, Timers.PRIO_TASK);
        }
        armNextBoundary();
        EventQueue queue = timers.queue();
        while (!queue.isEmpty()) {
            int slot = queue.peek();
            long t = queue.when(slot);
            queue.poll();
            clock.now = t;
            if (slot == timers.end()) {
                break;
            }
            dispatch(slot);
            scheduler.scheduleMarked();
            events++;
            if ((events & 4095) == 0) {
                check();
            }
            if (lifecycle.allCompleted()) {
                break;
            }
        }
        return finish();
    }

    /**
     * Every task on its fork-balanced CPU: started (now or at its run's start time), or blocked on its peer. A
     * warm-up run's threads are placed as the reported run's are, each run on a machine of its own to the fork
     * balance (its threads are the only ones it counts).
     */
    private void startTasks() {
        Map<Long, ForkBalance> warmupForks = new HashMap<>();
        for (WorkloadRun w : workloads) {
            ForkBalance fork = w.warmup ? warmupForks.computeIfAbsent(w.originNs, k -> new ForkBalance(topo))
                    : forkBalance;
            long startNs = w.originNs + spec.startUs() * 1000;
            for (int i = 0; i < w.tasks.length; i++) {
                Task task = (Task) w.tasks[i];
                int cpu = fork.selectForkCpu(task);
                task.cpu = cpu;
                if (w.program.startsBlocked(i)) {
                    Action a = task.next();
                    if (a == Action.BLOCK) {
                        task.setState(TaskState.BLOCKED);
                    } else {
                        // Its peer, started before it, already woke it (a client that does not think writes its
                        // request at once): like a read of a pipe with a byte in it, it does not block.
                        wakeup.activateNewTask(task, cpu, a);
                    }
                } else if (startNs > 0) {
                    timers.arm(timers.task(task.id), startNs, Timers.PRIO_TASK);
                } else {
                    wakeup.wakeUpNewTask(task, cpu);
                }
            }
        }
    }

    /** Every 4096 events: the budget, progress and cancellation. */
    private void check() {
        if (events > eventBudget) {
            throw new BudgetExceededException(eventBudget);
        }
        // (after warm-up runs, the whole clock's share in the reported run's µs: progress is of the whole run)
        long us = warmup.runs == 0 ? clock.now / 1000
                : (long) ((double) clock.now / (warmup.originNs + spec.durationUs() * 1000) * spec.durationUs());
        control.progress(us, events);
        if (control.cancelled()) {
            throw new RunCancelledException();
        }
    }

    /** Runs the handler of the timer that fired (slot ranges: {@link Timers}). */
    private void dispatch(int slot) {
        if (slot < timers.runEndBase) {
            tick.schedTick(cpus[slot]);
            hrtimerRunQueues(slot);
        } else if (slot < timers.idleExitBase) {
            lifecycle.segmentDone(cpus[slot - timers.runEndBase]);
        } else if (slot < timers.taskBase) {
            scheduler.idleExitDone(cpus[slot - timers.idleExitBase]);
        } else if (slot < timers.groupBase) {
            Task task = tasks[slot - timers.taskBase];
            if (task.is(TaskState.SLEEPING)) {
                int cpu = task.cpu;
                if (task.irqWake) {
                    // the end of the interrupt that expired its timer
                    task.irqWake = false;
                    wakeup.tryToWakeUp(task, cpu, false);
                    return;
                }
                if (hrtimerInterrupt.expireNow(task, cpu)) {
                    wakeup.tryToWakeUp(task, cpu, false);
                }
                hrtimerRunQueues(cpu);
            } else if (task.is(TaskState.NEW)) {
                wakeup.wakeUpNewTask(task, task.cpu);
            }
        } else if (slot < timers.irqBase) {
            int g = (slot - timers.groupBase) >> 1;
            if (((slot - timers.groupBase) & 1) == 0) {
                pool.schedCfsPeriodTimer(pool.bandwidthOf(groups[g]));
            } else {
                pool.doSchedCfsSlackTimer(pool.bandwidthOf(groups[g]));
            }
        } else if (slot < timers.clockReadBase) {
            activity.irq(cpus[slot - timers.irqBase], clock.now);
        } else if (slot < timers.hostStallBase) {
            updateCurr.clockRead(cpus[slot - timers.clockReadBase]);
        } else if (slot < timers.stop()) {
            hostStalls.fire(cpus[slot - timers.hostStallBase]);
        } else if (slot == timers.stop()) {
            lifecycle.stopAll();
        } else {
            boundary();
        }
    }

    private void armNextBoundary() {
        if (nextBoundary < warmup.boundaries.size()) {
            // (before anything else due at the same instant: a run's threads start after its cgroups are made)
            timers.arm(timers.boundary(), warmup.boundaries.get(nextBoundary).timeNs(), Timers.PRIO_END);
        }
    }

    /** The boundaries between warm-up runs that are due ({@link WarmupPlan}), then the next one armed. */
    private void boundary() {
        while (nextBoundary < warmup.boundaries.size()
                && warmup.boundaries.get(nextBoundary).timeNs() <= clock.now) {
            WarmupPlan.Boundary b = warmup.boundaries.get(nextBoundary++);
            switch (b.kind()) {
                case STOP -> {
                    for (WorkloadRun w : workloads) {
                        if (w.warmup && w.originNs == warmup.startNs(b.run())) {
                            lifecycle.stop(w.tasks);
                        }
                    }
                }
                case CONFIGURE -> {
                    for (int i = 0; i < groups.length; i++) {
                        if (warmup.runOfCgroup(i) == b.run()) {
                            configure(i);
                        }
                    }
                }
                case REPORT -> startReport();
            }
        }
        armNextBoundary();
    }

    /**
     * The reported run starts after the warm-up runs: its cgroups are made, and what the report counts starts from
     * 0 here (the scheduler's counters, CPU busy and overhead time, cgroup usage, energy, the time series and the
     * trace); the kernel's state stays as the warm-up left it.
     */
    private void startReport() {
        long now = clock.now;
        for (int i = 1; i < spec.cgroups().size(); i++) {
            configure(i);
        }
        recorder.rebase(now);
        counters.reset();
        balance.counters().reset();
        selectIdle.resetCounts();
        for (Cpu cpu : cpus) {
            scheduler.startReport(cpu, now);
            execution.startReport(cpu);
        }
        for (TaskGroup g : groups) {
            g.usageNs = 0;
        }
        warmupEnergyJ = power.energyNow(smt.coreBusy());
    }

    /**
     * The rest of __hrtimer_run_queues() after an hrtimer of {@code cpu} fired (the tick, a sleep): the sleeps whose
     * soft expiry has passed end now, in the order of their hard expiry ({@link HrtimerBases}).
     */
    private void hrtimerRunQueues(int cpu) {
        Task p;
        while ((p = hrtimers.nextExpired(cpu)) != null) {
            if (hrtimerInterrupt.expireNow(p, cpu)) {
                wakeup.tryToWakeUp(p, cpu, false);
            }
        }
    }

    /** Accounts every CPU up to now, then assembles the report. */
    private Report finish() {
        long now = clock.now;
        for (Cpu cpu : cpus) {
            if (cpu.curr != null) {
                updateCurr.updateCurr(cpu);
                execution.updateWork(cpu);
            }
            if (cpu.busy) {
                cpu.busyNs += now - cpu.lastBusyStart;
                recorder.add(recorder.busyNs, cpu.lastBusyStart, now);
            }
        }
        double energy = power.energyNow(smt.coreBusy()) - warmupEnergyJ;
        // (the report is of the spec's workloads and cgroups; the machine's background threads show only as CPU
        // time, the warm-up runs not at all)
        WorkloadRun[] reported = java.util.Arrays.copyOf(workloads, spec.workloads().size());
        TaskGroup[] reportedGroups = java.util.Arrays.copyOf(groups, spec.cgroups().size());
        CfsBandwidth[] bandwidth = new CfsBandwidth[reportedGroups.length];
        for (TaskGroup g : reportedGroups) {
            bandwidth[g.index] = pool.bandwidthOf(g);
        }
        return ReportBuilder.build(new ReportBuilder.Run(warmup.originNs, now, events, cpus, reportedGroups,
                bandwidth, reported, energy,
                topo.levels(),
                counters, balance.counters(), selectIdle, recorder, spec.trace()));
    }

    // ------------------------------------------------------------------------------------------------
    // For white-box tests of a configured run

    public SimClock clock() {
        return clock;
    }

    public Timers timers() {
        return timers;
    }

    public TaskGroup[] groups() {
        return groups;
    }

    public BandwidthPool pool() {
        return pool;
    }

    public Throttle throttle() {
        return throttle;
    }
}
