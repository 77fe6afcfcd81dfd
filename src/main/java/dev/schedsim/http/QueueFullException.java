package dev.schedsim.http;

/**
 * The queue has no room for a submission's runs: {@code schedsim.max-queued} counts queued runs (a simulation is
 * variants x repetitions runs), answered 503 with Retry-After.
 */
public class QueueFullException extends RuntimeException {
    public QueueFullException(long max, long queued, long runs) {
        super("the queue holds " + queued + " runs of at most " + max + " (schedsim.max-queued) and this simulation"
                + " has " + runs + "; retry later");
    }
}
