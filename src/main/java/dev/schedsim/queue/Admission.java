package dev.schedsim.queue;

import dev.schedsim.http.ClientLimitException;
import java.util.function.Supplier;

/**
 * Whether a client may queue a submission of {@code runs} runs now, asked after an idempotent replay was ruled
 * out and before the global queue limit (schedsim.max-queued, the last guard). Implemented by the security layer
 * (per-client limits); throws {@link ClientLimitException} to refuse. Exact under concurrency: a submission runs
 * {@link #exclusive} around its transaction and {@link #admit} first in it, so that of two submissions of one
 * client the second counts what the first wrote.
 */
public interface Admission {
    /** Runs {@code write} (the admission's transaction) as the only admission of {@code owner} now. */
    <T> T exclusive(String owner, Supplier<T> write);

    /**
     * Inside the transaction {@link #exclusive} runs: takes the client's lock in the database, then checks.
     *
     * @param owner  the submitting client's name, null when security is off (no per-client limits)
     * @param runs   the runs the submission queues
     * @param events the engine events they are estimated to process (an advice, whose steps are admitted as
     *               they come: 1, so that a client whose budget is spent is refused it too)
     */
    void admit(String owner, int runs, long events);
}
