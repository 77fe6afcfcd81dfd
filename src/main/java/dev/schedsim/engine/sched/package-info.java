/**
 * The state the mechanisms share, as kernel/sched/sched.h and include/linux/sched.h declare it: {@code struct rq}
 * ({@link dev.schedsim.engine.sched.Cpu}), {@code struct task_struct} ({@link dev.schedsim.engine.sched.Task}),
 * {@code struct cfs_rq} ({@link dev.schedsim.engine.sched.CfsRq}, with its deadline-sorted
 * {@link dev.schedsim.engine.sched.Timeline} for long queues), {@code struct sched_entity}
 * ({@link dev.schedsim.engine.sched.Entity}), {@code struct task_group}, the weights and tunables; and the small
 * helpers every mechanism calls on them: the run-queue bookkeeping ({@link dev.schedsim.engine.sched.RunQueues}),
 * resched_curr() ({@link dev.schedsim.engine.sched.Resched}), update_rq_clock_task()
 * ({@link dev.schedsim.engine.sched.RqClock}). It imports no mechanism package.
 */
package dev.schedsim.engine.sched;
