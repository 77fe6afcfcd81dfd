package dev.schedsim.engine.workload;

import java.util.SplittableRandom;

/** What the scheduler core does for a program's thread: the wakeup path, the clock and the run's generator. */
public interface ThreadOps {
    /** try_to_wake_up(p) from {@code wakerCpu}. */
    void tryToWakeUp(SimThread p, int wakerCpu, boolean sync);

    long now();

    SplittableRandom random();
}
