/**
 * CFS bandwidth control (kernel/sched/fair.c, cpu.max and cpu.max.burst): {@code struct cfs_bandwidth}; the global
 * pool with its period and slack timers ({@link dev.schedsim.engine.bandwidth.BandwidthPool}); each cfs_rq's
 * runtime, throttling and unthrottling in the cfs_rq-based model of 6.1 and the task-based model of 6.18
 * ({@link dev.schedsim.engine.bandwidth.Throttle}); the static key and the hooks' cost.
 */
package dev.schedsim.engine.bandwidth;
