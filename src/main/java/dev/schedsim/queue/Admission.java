package dev.schedsim.queue;

import dev.schedsim.http.ClientLimitException;

/**
 * Whether a client may queue a submission of {@code runs} runs now, asked after an idempotent replay was ruled
 * out and before the global queue limit (schedsim.max-queued, the last guard). Implemented by the security layer
 * (per-client limits); throws {@link ClientLimitException} to refuse.
 */
public interface Admission {
    /** @param owner the submitting client's name, null when security is off (no per-client limits) */
    void admit(String owner, int runs);
}
