package dev.schedsim.queue;

import dev.schedsim.DatabaseErrors;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker side's answer to errors that say the database is away ({@link DatabaseErrors#isOutage}): wait and
 * retry with backoff. Such an error is never a simulation's failure (issue "Faults without
 * loss"): a heartbeat that cannot be written is skipped, a finished run's results are stored when the database
 * returns, a run that cannot be handled goes back to the queue.
 */
public final class DatabaseOutage {
    private static final Logger log = LoggerFactory.getLogger(DatabaseOutage.class);
    private static final long FIRST_WAIT_MS = 100;
    private static final long LONGEST_WAIT_MS = 5_000;

    private DatabaseOutage() {
    }

    /**
     * Runs {@code op} until it succeeds, waiting 0.1 s, 0.2 s, ... up to 5 s between attempts while the database is
     * away; other errors are thrown at once. When {@code giveUp} says so (the service is stopping) the last outage
     * error is thrown: what was not written stays as the database has it (a RUNNING run is requeued by recovery).
     */
    public static <T> T retry(String what, Supplier<T> op, BooleanSupplier giveUp) {
        long waitMs = FIRST_WAIT_MS;
        long since = System.nanoTime();
        int attempts = 0;
        while (true) {
            try {
                T value = op.get();
                if (attempts > 0) {
                    log.info("{}: done after the database was away for {} s", what,
                            Duration.ofNanos(System.nanoTime() - since).toSeconds());
                }
                return value;
            } catch (RuntimeException e) {
                if (!DatabaseErrors.isOutage(e) || giveUp.getAsBoolean()) {
                    throw e;
                }
                if (attempts++ % 20 == 0) {
                    log.warn("{}: the database is unavailable ({}); retrying", what, DatabaseErrors.rootMessage(e));
                }
            }
            try {
                Thread.sleep(waitMs);
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(what + ": interrupted while waiting for the database", ie);
            }
            waitMs = Math.min(LONGEST_WAIT_MS, waitMs * 2);
        }
    }

    /** {@link #retry(String, Supplier, BooleanSupplier)} for a write without a result. */
    public static void retry(String what, Runnable op, BooleanSupplier giveUp) {
        retry(what, () -> {
            op.run();
            return null;
        }, giveUp);
    }

}
