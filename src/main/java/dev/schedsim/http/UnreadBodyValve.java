package dev.schedsim.http;

import jakarta.servlet.ServletException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ValveBase;
import org.apache.coyote.ActionCode;

/**
 * A body the service does not read is refused, not swallowed. Tomcat reads what is left of a request's body after
 * the response (up to 2 MB, to keep the connection), on the request thread and with no deadline of its own: 250
 * clients sending {@code GET /actuator/health} or an unauthenticated POST with {@code Content-Length: 100000} and
 * a byte a second held all 200 request threads there (issue 36), where neither schedsim.body-timeout nor
 * schedsim.max-body-reads apply. So:
 *
 * <ul>
 *   <li>a request whose method takes no body (GET, HEAD, DELETE, OPTIONS) but announces one is answered 400 at
 *       once, without reading it;</li>
 *   <li>any other whose body the application left unread (refused before reading: 401, 403, 404, 413, 429) is
 *       not swallowed: its connection is closed after the response.</li>
 * </ul>
 */
class UnreadBodyValve extends ValveBase {
    private static final Set<String> NO_BODY = Set.of("GET", "HEAD", "DELETE", "OPTIONS");

    UnreadBodyValve() {
        super(true);
    }

    @Override
    public void invoke(Request request, Response response) throws IOException, ServletException {
        boolean body = request.getContentLengthLong() > 0 || request.getHeader("Transfer-Encoding") != null;
        if (body && NO_BODY.contains(request.getMethod())) {
            request.getCoyoteRequest().action(ActionCode.DISABLE_SWALLOW_INPUT, null);
            String detail = "a " + request.getMethod() + " request takes no body; send it without Content-Length "
                    + "or Transfer-Encoding";
            response.setStatus(400);
            response.setHeader("Connection", "close");
            response.setContentType("application/problem+json");
            response.getOutputStream().write(("{\"type\":\"https://schedsim.dev/problems/validation\",\"title\":"
                    + "\"Invalid request\",\"status\":400,\"detail\":\"" + detail + "\"}")
                    .getBytes(StandardCharsets.UTF_8));
            return;
        }
        getNext().invoke(request, response);
        if (body && !request.isAsyncStarted()) {
            AtomicBoolean read = new AtomicBoolean();
            request.getCoyoteRequest().action(ActionCode.REQUEST_BODY_FULLY_READ, read);
            if (!read.get()) {
                // (Tomcat then closes the connection after the response: the rest of the body is never read)
                request.getCoyoteRequest().action(ActionCode.DISABLE_SWALLOW_INPUT, null);
                // An answer the application sent is not an error for the host to report again after it (one
                // still to be written, a timeout or a malformed chunk, is left to the error report valve).
                if (response.isCommitted()) {
                    response.setErrorReported();
                }
            }
        }
    }
}
