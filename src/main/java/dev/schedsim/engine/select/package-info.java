/**
 * Where a task runs (kernel/sched/fair.c): select_task_rq_fair() with wake_wide() and wake_affine(),
 * select_idle_sibling() and select_idle_cpu() with SIS_UTIL, SIS_PROP and seed 002's SIS_CACHE (whose bookkeeping
 * at dequeue and wakeup is {@code fair.SisCache}), and fork balancing.
 */
package dev.schedsim.engine.select;
