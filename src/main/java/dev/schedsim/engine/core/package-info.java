/**
 * kernel/sched/core.c, the orchestration on top of the mechanisms: the run of one simulation
 * ({@link dev.schedsim.engine.core.Simulation}: the event loop and the construction of every mechanism), __schedule()
 * ({@link dev.schedsim.engine.core.Scheduler}), try_to_wake_up() ({@link dev.schedsim.engine.core.Wakeup}), the
 * tick, migration and a task's life. The state they work on is in {@code engine.sched}.
 */
package dev.schedsim.engine.core;
