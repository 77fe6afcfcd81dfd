package dev.schedsim.security;

import dev.schedsim.http.ClientLimitException;
import dev.schedsim.queue.Admission;
import dev.schedsim.queue.RecentSubmissions;
import dev.schedsim.queue.SimulationJobs;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.springframework.stereotype.Component;

/**
 * Per-client limits of submissions, counted from the database so that every instance sharing it applies the same
 * count: {@code schedsim.security.max-queued-per-client} queued runs (as schedsim.max-queued counts them, variants x
 * repetitions) and {@code schedsim.security.submissions-per-minute} simulations submitted in the last 60 s (their
 * rows' creation times). Two submissions of one client at the same instant may both pass (the counts are read,
 * not locked): the limits are for fairness between clients, not exact quotas. A simulation deleted within the
 * minute no longer counts. No client (security off): no per-client limit.
 */
@Component
class ClientLimits implements Admission {
    static final Duration WINDOW = Duration.ofMinutes(1);
    private final ApiSecurityProperties properties;
    private final SimulationJobs simulations;
    private final Clock clock;

    ClientLimits(ApiSecurityProperties properties, SimulationJobs simulations, Clock clock) {
        this.properties = properties;
        this.simulations = simulations;
        this.clock = clock;
    }

    @Override
    public void admit(String owner, int runs) {
        if (owner == null) {
            return;
        }
        int perMinute = properties.submissionsPerMinute();
        if (perMinute > 0) {
            Instant now = clock.instant();
            RecentSubmissions recent = simulations.submittedSince(owner, now.minus(WINDOW));
            if (recent.count() >= perMinute) {
                // The first of them leaves the window then, making room for one more.
                long wait = recent.first() == null ? 1
                        : Math.max(1, (long) Math.ceil(Duration.between(now, recent.first().plus(WINDOW)).toMillis()
                        / 1000.0));
                throw new ClientLimitException("schedsim.security.submissions-per-minute", perMinute, wait,
                        "client '" + owner + "' submitted " + recent.count() + " simulations in the last minute, at "
                                + "most " + perMinute + " (schedsim.security.submissions-per-minute); retry in "
                                + wait + " s");
            }
        }
        long maxQueued = properties.maxQueuedPerClient();
        if (maxQueued > 0) {
            long queued = simulations.countQueuedRunsOf(owner);
            // Like the global limit, a client with nothing queued may queue any one simulation.
            if (queued > 0 && queued + runs > maxQueued) {
                throw new ClientLimitException("schedsim.security.max-queued-per-client", maxQueued, 30,
                        "client '" + owner + "' has " + queued + " queued runs of at most " + maxQueued
                                + " (schedsim.security.max-queued-per-client) and this simulation has " + runs
                                + "; retry when some have run, or cancel some");
            }
        }
    }
}
