package dev.schedsim.advice;

import dev.schedsim.http.BusyException;
import dev.schedsim.http.ClientLimitException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * Who may run an observed advice's fit now. The fit runs while the request waits, on every CPU
 * (ObservedFit: up to schedsim.limits.max-submission-events of engine events), outside the queue and its
 * per-client limits: without a bound, a client posting many at once would take the machine from the workers and
 * hold as many request threads. At most {@code schedsim.advice.max-concurrent-fits} (2) at once (503 beyond), one
 * per client (429 beyond; security off, the bound in all only).
 */
@Component
class FitPermits {
    private final Semaphore all;
    private final int max;
    /** The clients whose fit is running. */
    private final Set<String> running = ConcurrentHashMap.newKeySet();

    FitPermits(@Value("${schedsim.advice.max-concurrent-fits:2}") int max) {
        this.max = Math.max(0, max);
        this.all = new Semaphore(this.max);
    }

    /** A permit for {@code owner}'s fit (null: no client), to close when it ended; 429 or 503 at once if none. */
    Permit take(String owner) {
        if (owner != null && !running.add(owner)) {
            throw new ClientLimitException("schedsim.advice.max-concurrent-fits", 1, 5, "client '" + owner
                    + "' has an observed advice being fitted already; post the next when it is answered");
        }
        if (!all.tryAcquire()) {
            if (owner != null) {
                running.remove(owner);
            }
            throw new BusyException(max + " observed advices are being fitted already (schedsim.advice."
                    + "max-concurrent-fits, each on every CPU); retry in a few seconds", 5);
        }
        return () -> {
            all.release();
            if (owner != null) {
                running.remove(owner);
            }
        };
    }

    interface Permit extends AutoCloseable {
        Permit NONE = () -> {
        };

        @Override
        void close();
    }
}
