/**
 * Load balancing (kernel/sched/fair.c): the periodic balance from the tick and for idle CPUs (nohz), the newidle
 * balance with its cost tracking, and sched_balance_rq() in its steps — should_we_balance(), the busiest group and
 * queue, detach/attach and active balance. {@link dev.schedsim.engine.balance.LoadBalance} builds them for a run.
 */
package dev.schedsim.engine.balance;
