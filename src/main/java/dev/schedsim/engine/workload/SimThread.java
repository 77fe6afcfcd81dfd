package dev.schedsim.engine.workload;

import java.util.SplittableRandom;

/**
 * (model) A simulated thread as its {@link Program} sees it: what a thread can do — run, spin, sleep, block,
 * wake another thread, exit — and nothing of the scheduler. Implemented by the scheduler core's task.
 */
public interface SimThread {
    /** Its position among its workload's threads. */
    int index();

    /** Next, run {@code ns} of work at full single-thread speed (a CPU slower by SMT takes longer). */
    Action run(long ns);

    /** Next, run without end. */
    Action runForever();

    /**
     * Next, spin {@code ns} of wall time from the moment it first runs the spin (schbench's usec_spin() reads the
     * clock): however long it waits meanwhile, the spin ends at the same time; a preempted spin only ends late.
     */
    Action spin(long ns);

    /** Next, sleep {@code ns} on a timer with no slack. */
    Action sleep(long ns);

    /**
     * Next, sleep {@code ns} on an hrtimer with {@code slackNs} of slack (hrtimer_start_range_ns(): soft expiry at
     * {@code ns}, hard at {@code ns + slackNs}): it ends at the hard expiry, or earlier when another hrtimer of its
     * CPU (the tick, another sleeper) fires past its soft expiry (__hrtimer_run_queues()).
     */
    Action sleep(long ns, long slackNs);

    /** The simulated time, ns. */
    long now();

    /** The run's random generator (one per run, seeded: results stay deterministic). */
    SplittableRandom random();

    /** try_to_wake_up() of thread {@code thread} of the same workload from this thread's CPU. */
    void wake(int thread, boolean sync);

    /** The wakes thread {@code thread} received while not asleep and has not consumed (a pipe's unread data). */
    int unreadWakes(int thread);
}
