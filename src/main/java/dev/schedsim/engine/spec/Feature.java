package dev.schedsim.engine.spec;

/**
 * The switchable kernel mechanisms (their releases: KernelProfiles and GET /api/v1/kernel-profiles). Each switches
 * a <em>behaviour</em> of the model the way the named patch does; none scales a result.
 */
public enum Feature {
    /** EEVDF pick and placement (v6.6, "sched/fair: Implement an EEVDF-like scheduling policy"); off = CFS. */
    EEVDF,
    /** Bandwidth hooks cost nothing while no group has a quota (jump label, seed 001 patch 1). */
    BANDWIDTH_STATIC_KEY,
    /** return_cfs_rq_runtime() acts when the cfs_rq became empty; off = the inverted condition (seed 001 patch 2). */
    RETURN_RUNTIME_FIX,
    /** Throttled tasks leave nr_running at once so the CPU newidle-balances (seed 001 patch 3). */
    THROTTLE_IDLE_BALANCE,
    /** Per-CPU runtime expires at the period end (512ac999d275, v4.18; removed by de53fd7aedb1, v5.4). */
    SLICE_EXPIRATION,
    /** cpu.max.burst honoured (v5.14). */
    BANDWIDTH_BURST,
    /** update_blocked_averages counted in the first domain's newidle cost (seed 003 patches 1-2). */
    NEWIDLE_COST_BLOCKED_AVERAGES,
    /** max_newidle_lb_cost decays only after 1 s without a new maximum (e60b56e46b38, seed 003 patch 3). */
    NEWIDLE_DECAY_AFTER_WAIT,
    /** Also skip newidle balance when avg_idle &lt; sysctl_sched_migration_cost (removed in 5.16, seed 003 patch 4). */
    NEWIDLE_MIGRATION_COST_GATE,
    /** select_idle_cpu scan depth from LLC utilisation (v5.19); off = SIS_PROP. */
    SIS_UTIL,
    /** Skip idle CPUs that are cache-hot for a recent short sleeper (seed 002, never merged). */
    SIS_CACHE,
    /** Random initial phase of each group's period timer (seed 000, ~v6.4). */
    BANDWIDTH_TIMER_INTERLEAVE,
    /**
     * A task that sleeps while not eligible stays queued, its negative lag still competing, until it is picked
     * (then dequeued) or woken (requeued where it is, lag cut to zero): dequeue_entity()'s sched_delayed
     * (152e11f6df29 "sched/fair: Implement delayed dequeue", v6.12, with DELAY_ZERO).
     */
    DELAY_DEQUEUE,
    /**
     * update_curr() asks for a reschedule whenever curr's protected slice is over and others wait, not only when
     * its deadline moves: a task picked again without a switch is not protected (v6.17, Vincent Guittot's
     * run-to-parity series: "sched/fair: Fix NO_RUN_TO_PARITY case" and the patches after it).
     */
    PROTECT_SLICE_RESCHED,
    /** Throttle each task at its return-to-user point (e1fad12dcb66, v6.18). */
    TASK_BASED_THROTTLE,
    /**
     * The sched_skew_tick=1 boot parameter: tick_sched_timer() of CPU n expires n × (TICK_NSEC / 2) / nr_cpus after
     * the jiffy (tick_setup_sched_timer()), instead of every CPU's tick at once (off by default in every kernel).
     */
    SCHED_SKEW_TICK,
    /** Check that a domain is due before contending for sched_balance_running (3324b2180c17, seed 004). */
    BALANCE_DUE_BEFORE_SERIALIZE,
    /**
     * Newidle balance runs in each domain with the probability of its recent success rate (sd->newidle_ratio, a
     * 1024-sided die per domain; a success counts 1024/(1 + ratio) to make up for the skipped ones):
     * 33cf66d88306 "sched/fair: Proportional newidle balance", 6.19, in 6.18.y from 6.18.5 (with the revert of
     * the 6.17 cost bump, d206fbad9328).
     */
    NI_RANDOM,
    /**
     * reweight_entity() of a queued entity clamps its lag (update_entity_lag()), scales it by the weights and places
     * the entity again with place_entity(), whose PLACE_LAG step inflates the lag by (W + w)/W — W counting curr,
     * the entity itself when it is curr (6d71a9c61604 "sched/fair: Fix EEVDF entity placement bug causing
     * scheduling lag", v6.13; reverted by 101f3498b4bd in v7.0 and in 6.18.y after the validation machine's
     * 6.18.44). Off, the reweight keeps V and rescales the lag (v' = V − vl·w/w', as 6.7-6.12 and the revert do).
     */
    REWEIGHT_PLACE_ENTITY,
    /**
     * update_entity_lag() bounds the lag by the longest slice on the queue plus a tick (cfs_rq_max_slice() +
     * TICK_NSEC: "sched/fair: Fix lag clamp", v7.0, in 6.18.y by 6.18.44); before, by two of the entity's own
     * slices, at least a tick.
     */
    LAG_CLAMP_MAX_SLICE,
    /**
     * Not mainline: the vCPU packing of the validation machine's guest kernel (6.18.44-fc, boot parameter
     * sched_vcpu_pack=15), read from its machine code: a wakeup goes to a busy CPU that has room (at most one other
     * runnable task and its utilisation with the wakee under 70 % of capacity) before an idle one is looked for,
     * so that idle vCPUs stay halted. Off in every profile; docs/latency-validation.md.
     */
    VCPU_PACK,
    /**
     * CONFIG_IRQ_TIME_ACCOUNTING, a build option rather than a patch: the time interrupts take is taken out of the
     * CPU's task clock (update_rq_clock_task()), so the task they interrupt is not charged for it — neither its CPU
     * time nor its group's quota; off, the interrupted task pays for it. Off in every profile, as on the validation
     * machine (and Ubuntu's generic kernels); RHEL's kernels and Talos (since 2026) build it.
     */
    IRQ_TIME_ACCOUNTING,
    /**
     * A migrated task is not cache-hot for task_hot() until it runs again: set_task_cpu()'s migrate_task_rq_fair()
     * sets se.exec_start = 0 ("We have migrated, no longer consider this task hot"; 4.x to 6.2), since 6.3
     * enqueue_entity() on ENQUEUE_MIGRATED. Off in the 3.1 and 3.2 profiles, whose set_task_cpu() has no
     * migrate_task_rq hook (it came with 3.8): there a task moved by a wakeup stays hot for sysctl_sched_migration_cost after it
     * last ran.
     */
    MIGRATED_TASK_COLD;

    /** Parses a feature name exactly as the API and the kernel profiles write it; null when unknown. */
    public static Feature byName(String name) {
        for (Feature f : values()) {
            if (f.name().equals(name)) {
                return f;
            }
        }
        return null;
    }
}
