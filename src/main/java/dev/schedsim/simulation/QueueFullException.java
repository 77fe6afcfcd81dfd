package dev.schedsim.simulation;

/** The queue already holds {@code schedsim.max-queued} simulations (answered 503 with Retry-After). */
public class QueueFullException extends RuntimeException {
    public QueueFullException(long max) {
        super("the queue already holds " + max + " simulations; retry later");
    }
}
