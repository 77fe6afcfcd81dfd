package dev.schedsim.http;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.coyote.Constants;
import org.apache.coyote.Request;
import org.apache.coyote.http11.Http11Processor;
import org.apache.tomcat.util.net.NioChannel;
import org.apache.tomcat.util.net.NioEndpoint;
import org.apache.tomcat.util.net.SocketWrapperBase;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tomcat's NIO endpoint with the two bounds it lacks against slow or many connections (issue 36 item 2):
 *
 * <ul>
 *   <li>a total deadline on a request's line and headers: Tomcat's connection timeout is per read, so a client
 *       sending a header byte every 3 s kept its connection for ever, and 9 000 of them filled
 *       max-connections. A sweep closes every connection whose request began (its first byte) longer than
 *       {@code headerTimeout} ago and whose headers are still incomplete;</li>
 *   <li>connections per client address: one address with schedsim.connections.max-per-address open has the next
 *       answered 429 and closed at accept, before a thread or a parser is spent on it.</li>
 * </ul>
 */
class GuardedEndpoint extends NioEndpoint {
    private static final Logger log = LoggerFactory.getLogger(GuardedEndpoint.class);

    private volatile long headerTimeoutNs = TimeUnit.SECONDS.toNanos(10);
    private final ConnectionsPerAddress<SocketChannel> perAddress = new ConnectionsPerAddress<>(256);
    private ScheduledExecutorService sweeper;

    GuardedEndpoint() {
        // Tomcat removes a connection from this map when it closes it (NioSocketWrapper.doClose), whoever closes:
        // the one place to count its address down.
        connections = new ConcurrentHashMap<>() {
            @Override
            public SocketWrapperBase<NioChannel> remove(Object key) {
                SocketWrapperBase<NioChannel> removed = super.remove(key);
                perAddress.closed(key);
                return removed;
            }
        };
    }

    void setHeaderTimeoutMs(long ms) {
        headerTimeoutNs = TimeUnit.MILLISECONDS.toNanos(ms);
    }

    void setMaxPerAddress(int n) {
        perAddress.setMax(n);
    }

    @Override
    protected boolean setSocketOptions(SocketChannel socket) {
        InetAddress address = addressOf(socket);
        if (!perAddress.open(socket, address)) {
            refuse(socket, address);
            // (closing is ours: the acceptor closes only sockets that have a wrapper)
            destroySocket(socket);
            return false;
        }
        boolean ok = super.setSocketOptions(socket);
        if (!ok) {
            perAddress.closed(socket);
        }
        return ok;
    }

    private static InetAddress addressOf(SocketChannel socket) {
        try {
            return socket.getRemoteAddress() instanceof InetSocketAddress a ? a.getAddress() : null;
        } catch (IOException e) {
            return null;
        }
    }

    /** A short 429 written without blocking (a fresh socket's buffer takes it), then the endpoint closes. */
    private void refuse(SocketChannel socket, InetAddress address) {
        int max = perAddress.max();
        String body = "{\"type\":\"" + ProblemHandlers.BASE + "client-limit\",\"title\":\"Client limit reached\","
                + "\"status\":429,\"detail\":\"this address has " + max + " connections open already (schedsim"
                + ".connections.max-per-address); reuse them or close some\",\"limit\":\"schedsim.connections"
                + ".max-per-address\",\"value\":" + max + "}";
        String answer = "HTTP/1.1 429 \r\nContent-Type: application/problem+json\r\nRetry-After: 1\r\nConnection: "
                + "close\r\nContent-Length: " + body.length() + "\r\n\r\n" + body;
        try {
            socket.configureBlocking(false);
            socket.write(ByteBuffer.wrap(answer.getBytes(StandardCharsets.US_ASCII)));
        } catch (IOException e) {
            // gone already: closing is all that is left
        }
        log.debug("refused a connection from {}: {} open", address, perAddress.max());
    }

    @Override
    public void startInternal() throws Exception {
        super.startInternal();
        sweeper = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, getName() + "-header-deadline");
            t.setDaemon(true);
            return t;
        });
        long periodMs = Math.max(50, Math.min(1000, TimeUnit.NANOSECONDS.toMillis(headerTimeoutNs) / 4));
        sweeper.scheduleWithFixedDelay(this::closeLateHeaders, periodMs, periodMs, TimeUnit.MILLISECONDS);
    }

    @Override
    public void stopInternal() {
        if (sweeper != null) {
            sweeper.shutdownNow();
        }
        super.stopInternal();
    }

    /**
     * A processor left on its connection (Tomcat's LONG state) with its request begun (a start time) is waiting
     * for the rest of the request line or headers, unless it is asynchronous, upgraded, or already answering
     * (sendfile); its stage is then PARSE, or ENDED once service() has returned to wait for more bytes.
     */
    private static boolean awaitingHeaders(Http11Processor processor, Request request) {
        int stage = request.getRequestProcessor().getStage();
        return (stage == Constants.STAGE_PARSE || stage == Constants.STAGE_ENDED
                || stage == Constants.STAGE_KEEPALIVE) && !processor.isAsync() && !processor.isUpgrade()
                && !request.getResponse().isCommitted();
    }

    /** Closes the connections whose request line and headers have taken longer than the header timeout. */
    void closeLateHeaders() {
        long now = System.nanoTime();
        for (SocketWrapperBase<NioChannel> wrapper : connections.values()) {
            if (!(wrapper.getCurrentProcessor() instanceof Http11Processor processor)) {
                continue; // (no request begun since the last one; or not HTTP/1.1)
            }
            ReentrantLock lock = wrapper.getLock();
            // Held: a request thread is on it right now (parsing what just arrived, or serving); next sweep.
            if (!lock.tryLock()) {
                continue;
            }
            try {
                Request request = processor.getRequest();
                long start = request.getStartTimeNanos();
                if (start > 0 && now - start > headerTimeoutNs && awaitingHeaders(processor, request)
                        && wrapper.getCurrentProcessor() == processor) {
                    log.debug("closing {}: its headers took longer than {} ms", wrapper.getRemoteAddr(),
                            TimeUnit.NANOSECONDS.toMillis(headerTimeoutNs));
                    wrapper.close();
                }
            } catch (RuntimeException e) {
                log.debug("header deadline sweep", e);
            } finally {
                lock.unlock();
            }
        }
    }
}
