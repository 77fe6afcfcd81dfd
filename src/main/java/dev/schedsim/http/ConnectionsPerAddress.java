package dev.schedsim.http;

import java.net.InetAddress;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Open connections by client address, each counted from its accept to its close: a bound per address, so that one
 * client cannot take the connector's max-connections from everyone. The connection's own key (its socket) tells
 * which address to count down when it closes.
 */
final class ConnectionsPerAddress<K> {
    private final ConcurrentHashMap<InetAddress, Integer> open = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<K, InetAddress> addressOf = new ConcurrentHashMap<>();
    private volatile int max;

    ConnectionsPerAddress(int max) {
        this.max = max;
    }

    int max() {
        return max;
    }

    void setMax(int max) {
        this.max = max;
    }

    /** Counts {@code connection} in for {@code address}; false (and not counted) when the address has max open. */
    boolean open(K connection, InetAddress address) {
        if (max <= 0 || address == null) {
            return true;
        }
        boolean[] took = {false};
        open.compute(address, (a, n) -> {
            int now = n == null ? 0 : n;
            took[0] = now < max;
            return took[0] ? now + 1 : n;
        });
        if (took[0]) {
            addressOf.put(connection, address);
        }
        return took[0];
    }

    /** Counts {@code connection} out (nothing if it was never counted or is counted out already). */
    void closed(Object connection) {
        InetAddress address = addressOf.remove(connection);
        if (address != null) {
            open.computeIfPresent(address, (a, n) -> n <= 1 ? null : n - 1);
        }
    }
}
