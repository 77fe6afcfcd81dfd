package dev.schedsim.engine.event;

/**
 * The simulated time of a run, in nanoseconds: the time of the event being processed. Only the event loop
 * ({@code core.Simulation}) advances it; every mechanism reads it (the kernel's {@code rq_clock()}, one clock for
 * the whole machine in the model).
 */
public final class SimClock {
    /** Now, ns. Written by the event loop only. */
    public long now;
}
