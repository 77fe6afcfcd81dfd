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
 * rows' creation times, advices included: a client at its limit of simulations is at it for advices too), and
 * {@code schedsim.security.max-queued-events-per-client} the estimated engine events of its queued runs (what they
 * will cost a worker; each run row holds its estimate). Exact
 * under concurrency: a client's admissions take its lock ({@link ClientLocks}) and count and write in one
 * transaction, so 50 parallel submissions against a limit of 10 accept 10. A simulation deleted within the minute
 * no longer counts. No client (security off): no per-client limit.
 */
@Component
class ClientLimits implements Admission {
    static final Duration WINDOW = Duration.ofMinutes(1);
    private final ApiSecurityProperties properties;
    private final SimulationJobs simulations;
    private final Clock clock;
    private final ClientLocks locks;
    private final org.springframework.jdbc.core.JdbcTemplate jdbc;

    ClientLimits(ApiSecurityProperties properties, SimulationJobs simulations, Clock clock, ClientLocks locks,
                 javax.sql.DataSource dataSource) {
        this.properties = properties;
        this.simulations = simulations;
        this.clock = clock;
        this.locks = locks;
        this.jdbc = new org.springframework.jdbc.core.JdbcTemplate(dataSource);
    }

    @Override
    public <T> T exclusive(String owner, java.util.function.Supplier<T> write) {
        return owner == null || !limited() ? write.get() : locks.exclusive(owner, write);
    }

    private boolean limited() {
        return properties.submissionsPerMinute() > 0 || properties.maxQueuedPerClient() > 0
                || properties.maxQueuedEventsPerClient() > 0;
    }

    @Override
    public void admit(String owner, int runs, long events) {
        if (owner == null || !limited()) {
            return;
        }
        locks.lockInTransaction(owner);
        int perMinute = properties.submissionsPerMinute();
        if (perMinute > 0) {
            Instant now = clock.instant();
            RecentSubmissions recent = recent(owner, now.minus(WINDOW));
            if (recent.count() >= perMinute) {
                // The first of them leaves the window then, making room for one more.
                long wait = recent.first() == null ? 1
                        : Math.max(1, (long) Math.ceil(Duration.between(now, recent.first().plus(WINDOW)).toMillis()
                        / 1000.0));
                throw new ClientLimitException("schedsim.security.submissions-per-minute", perMinute, wait,
                        "client '" + owner + "' submitted " + recent.count() + " simulations and advices in the last "
                                + "minute, at most " + perMinute + " (schedsim.security.submissions-per-minute); retry in "
                                + wait + " s");
            }
        }
        long maxQueued = properties.maxQueuedPerClient();
        if (maxQueued > 0) {
            long queued = simulations.countQueuedRunsOf(owner);
            // (an advice queues its steps' runs as it goes: at least one, so a full queue refuses it too)
            // Like the global limit, a client with nothing queued may queue any one simulation.
            if (queued > 0 && queued + runs > maxQueued) {
                throw new ClientLimitException("schedsim.security.max-queued-per-client", maxQueued, 30,
                        "client '" + owner + "' has " + queued + " queued runs of at most " + maxQueued
                                + " (schedsim.security.max-queued-per-client) and this simulation has " + runs
                                + "; retry when some have run, or cancel some");
            }
        }
        long maxEvents = properties.maxQueuedEventsPerClient();
        if (maxEvents > 0) {
            long queued = simulations.sumQueuedEventsOf(owner);
            // (as with runs, nothing queued admits any one simulation: max-submission-events bounds each)
            if (queued > 0 && (double) queued + events > maxEvents) {
                throw new ClientLimitException("schedsim.security.max-queued-events-per-client", maxEvents, 30,
                        "client '" + owner + "' has queued runs estimated at " + queued + " engine events of at "
                                + "most " + maxEvents + " (schedsim.security.max-queued-events-per-client) and this "
                                + "submission is estimated at " + events + "; retry when some have run, cancel "
                                + "some, or submit a shorter one (less simulated time, fewer threads, variants or "
                                + "repetitions)");
            }
        }
    }

    /**
     * The client's simulations and advices of the window, and the first of them. The advice table is read here,
     * not through the advice feature's repository: it is the same count for both kinds of submission.
     */
    private RecentSubmissions recent(String owner, Instant since) {
        RecentSubmissions s = simulations.submittedSince(owner, since);
        RecentSubmissions a = jdbc.queryForObject("select count(*), min(created_at) from advice where owner = ? "
                + "and created_at > ?", (rs, i) -> {
                    java.time.OffsetDateTime t = rs.getObject(2, java.time.OffsetDateTime.class);
                    return new RecentSubmissions(rs.getLong(1), t == null ? null : t.toInstant());
                }, owner, since.atOffset(java.time.ZoneOffset.UTC));
        Instant first = s.first() == null ? a.first() : a.first() == null ? s.first()
                : s.first().isBefore(a.first()) ? s.first() : a.first();
        return new RecentSubmissions(s.count() + a.count(), first);
    }
}
