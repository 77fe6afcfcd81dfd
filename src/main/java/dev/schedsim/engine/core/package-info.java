/**
 * kernel/sched/core.c: the run of one simulation ({@link dev.schedsim.engine.core.Simulation}: the event loop and
 * the construction of every mechanism), {@code struct rq} ({@link dev.schedsim.engine.core.Cpu}) and
 * {@code struct task_struct} ({@link dev.schedsim.engine.core.Task}), __schedule()
 * ({@link dev.schedsim.engine.core.Scheduler}), try_to_wake_up() ({@link dev.schedsim.engine.core.Wakeup}), the
 * tick, migration, and the run-queue bookkeeping others read ({@link dev.schedsim.engine.core.RunQueues}).
 */
package dev.schedsim.engine.core;
