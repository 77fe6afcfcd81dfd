package dev.schedsim.http;

import jakarta.servlet.http.HttpServletRequest;
import java.security.Principal;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;

/**
 * Who may be sending a body now: at most {@code schedsim.max-body-reads} in all (503 beyond: a request thread
 * each, while its client sends) and {@code schedsim.max-body-reads-per-client} per client (429 beyond), so that
 * one client's slow uploads cannot take every read from the others (issue 36 item 7: they gave everyone 503).
 */
final class BodyReadPermits {
    private final Semaphore all;
    private final int max;
    private final int maxPerClient;
    /** Bodies being read now, by client. */
    private final ConcurrentHashMap<String, Integer> byClient = new ConcurrentHashMap<>();

    BodyReadPermits(int max, int maxPerClient) {
        this.max = max;
        this.maxPerClient = maxPerClient;
        this.all = new Semaphore(max);
    }

    /** A permit to read {@code request}'s body, to close when read; 429 or 503 at once when there is none. */
    Permit take(HttpServletRequest request) {
        String client = client(request);
        boolean[] took = {false};
        byClient.compute(client, (k, n) -> {
            int now = n == null ? 0 : n;
            took[0] = now < maxPerClient;
            return took[0] ? now + 1 : n;
        });
        if (!took[0]) {
            throw new ClientLimitException("schedsim.max-body-reads-per-client", maxPerClient, 2, "client " + client
                    + " is sending " + maxPerClient + " request bodies already (schedsim.max-body-reads-per-client);"
                    + " send them one after another, or faster");
        }
        if (!all.tryAcquire()) {
            releaseClient(client);
            throw new BodyReadsBusyException(max);
        }
        return () -> {
            all.release();
            releaseClient(client);
        };
    }

    private void releaseClient(String client) {
        byClient.computeIfPresent(client, (k, n) -> n <= 1 ? null : n - 1);
    }

    /** Who sends: the authenticated client by name, else the address the connection comes from. */
    private static String client(HttpServletRequest request) {
        Principal p = request.getUserPrincipal();
        return p != null && p.getName() != null ? "'" + p.getName() + "'" : request.getRemoteAddr();
    }

    interface Permit extends AutoCloseable {
        @Override
        void close();
    }
}
