/**
 * kernel/sched/fair.c's fair class, on the state of {@code engine.sched} ({@code struct sched_entity},
 * {@code struct cfs_rq}, {@code struct task_group}): update_curr(), enqueue/dequeue through the hierarchy with
 * place_entity() ({@link dev.schedsim.engine.fair.FairQueue}), group shares and reweight_entity(), EEVDF's and
 * CFS's picks, the fair side of __schedule() and the preemption checks.
 */
package dev.schedsim.engine.fair;
