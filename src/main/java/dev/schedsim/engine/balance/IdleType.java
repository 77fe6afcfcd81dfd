package dev.schedsim.engine.balance;

/** enum cpu_idle_type: why a balance runs. */
public enum IdleType {
    /** The periodic balance of an idle CPU (done for it by the nohz idle balancer). */
    CPU_IDLE,
    /** The periodic balance of a busy CPU. */
    CPU_NOT_IDLE,
    /** sched_balance_newidle(): the CPU ran out of work. */
    CPU_NEWLY_IDLE
}
