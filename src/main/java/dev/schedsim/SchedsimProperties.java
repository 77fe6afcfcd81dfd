package dev.schedsim;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * Service settings ({@code schedsim.*}).
 *
 * @param workers      worker threads per instance (default: available processors)
 * @param pollInterval how often an idle worker looks for queued rows
 * @param progressInterval least time between two progress writes of a running job
 * @param maxQueued    queued runs (variants x repetitions of each queued simulation) beyond which a submission
 *                     gets 503 with Retry-After; an empty queue admits any simulation
 * @param maxBodySize  largest accepted request body (413 beyond)
 * @param recovery     start-up recovery of rows left RUNNING
 * @param warmup       CPU time an idle worker spends after a start running sample requests the way jobs run
 *                     (engine and database statements, rolled back), so that the JIT has compiled that path
 *                     before the first jobs; it gives way to jobs (default 15 s; 0 turns it off)
 * @param claimBatch   about how much work a worker claims at once: runs of one variant of a simulation, as many
 *                     as fit in this time by the variant's previous run on this instance, at most 32 (default
 *                     100 ms; 0 claims one run at a time)
 * @param shutdownGrace how long a graceful stop lets running runs finish (no new run starts) before it interrupts
 *                      them and requeues them (default 10 s; 0 interrupts at once)
 * @param bodyTimeout  how long a request body may take to arrive, in all (and between two reads); beyond it 408,
 *                     so that slow clients cannot hold the request threads (default 10 s)
 * @param maxBodyReads request bodies read at the same time; one more is answered 503 at once, so that slow
 *                     uploads hold at most this many request threads and the rest (reads, health) go on (32)
 * @param maxBodyReadsPerClient request bodies one client (its API key's name, or its address without one) may be
 *                     sending at the same time; one more is answered 429 at once, so that one client's slow
 *                     uploads cannot take maxBodyReads from everyone (4)
 * @param connections  bounds on connections that slow or many clients hold
 */
@ConfigurationProperties("schedsim")
public record SchedsimProperties(Integer workers, Duration pollInterval, Duration progressInterval, Long maxQueued,
                                 DataSize maxBodySize, Recovery recovery, Duration warmup,
                                 Duration claimBatch, Duration shutdownGrace, Duration bodyTimeout,
                                 Integer maxBodyReads, Integer maxBodyReadsPerClient,
                                 Connections connections) {

    /**
     * @param requeueAllOnStartup single instance: every RUNNING row belongs to a dead process
     * @param heartbeatTimeout    several instances: a RUNNING row whose heartbeat is older is orphaned
     */
    public record Recovery(Boolean requeueAllOnStartup, Duration heartbeatTimeout) {
    }

    /**
     * @param headerTimeout a request's line and headers must arrive within this time of their first byte, in all
     *                      (server.tomcat.connection-timeout bounds each read only); the connection is closed
     *                      beyond it (default 10 s)
     * @param maxPerAddress open connections one client address may have; one more is answered 429 and closed at
     *                      once (default 256; 0: no bound). Behind a proxy every client has the proxy's address
     */
    public record Connections(Duration headerTimeout, Integer maxPerAddress) {
        public Connections {
            headerTimeout = headerTimeout == null ? Duration.ofSeconds(10) : headerTimeout;
            maxPerAddress = maxPerAddress == null || maxPerAddress < 0 ? 256 : maxPerAddress;
        }
    }

    public SchedsimProperties {
        if (workers == null || workers < 1) {
            workers = Runtime.getRuntime().availableProcessors();
        }
        pollInterval = pollInterval == null ? Duration.ofMillis(200) : pollInterval;
        progressInterval = progressInterval == null ? Duration.ofMillis(500) : progressInterval;
        maxQueued = maxQueued == null ? 10_000L : maxQueued;
        maxBodySize = maxBodySize == null ? DataSize.ofMegabytes(8) : maxBodySize;
        warmup = warmup == null ? Duration.ofSeconds(15) : warmup;
        claimBatch = claimBatch == null ? Duration.ofMillis(100) : claimBatch;
        shutdownGrace = shutdownGrace == null ? Duration.ofSeconds(10) : shutdownGrace;
        bodyTimeout = bodyTimeout == null ? Duration.ofSeconds(10) : bodyTimeout;
        maxBodyReads = maxBodyReads == null || maxBodyReads < 1 ? 32 : maxBodyReads;
        maxBodyReadsPerClient = maxBodyReadsPerClient == null || maxBodyReadsPerClient < 1 ? 4
                : maxBodyReadsPerClient;
        connections = connections == null ? new Connections(null, null) : connections;
        if (recovery == null) {
            recovery = new Recovery(true, Duration.ofSeconds(30));
        } else {
            recovery = new Recovery(recovery.requeueAllOnStartup() == null || recovery.requeueAllOnStartup(),
                    recovery.heartbeatTimeout() == null ? Duration.ofSeconds(30) : recovery.heartbeatTimeout());
        }
    }
}
