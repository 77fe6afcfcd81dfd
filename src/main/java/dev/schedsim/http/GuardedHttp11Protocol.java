package dev.schedsim.http;

import org.apache.coyote.http11.Http11NioProtocol;

/**
 * Tomcat's HTTP/1.1 NIO protocol on a {@link GuardedEndpoint}: a total header deadline and a bound on connections
 * per address. Public with a no-argument constructor: Tomcat's connector creates it by name
 * ({@link ProblemErrorPages} sets the name).
 */
public class GuardedHttp11Protocol extends Http11NioProtocol {
    public GuardedHttp11Protocol() {
        super(new GuardedEndpoint());
    }

    private GuardedEndpoint guarded() {
        return (GuardedEndpoint) getEndpoint();
    }

    /** Request line and headers must arrive within this many milliseconds of their first byte. */
    public void setHeaderTimeoutMs(long ms) {
        guarded().setHeaderTimeoutMs(ms);
    }

    /** Open connections one client address may have (0: no bound). */
    public void setMaxConnectionsPerAddress(int n) {
        guarded().setMaxPerAddress(n);
    }
}
