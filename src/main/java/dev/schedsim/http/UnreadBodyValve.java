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
 *   <li>any other whose body the application left unread (refused before reading: 401, 403, 404, 413, 429) gets
 *       its answer whole, and then its connection is closed instead of the rest being read.</li>
 * </ul>
 *
 * An engine valve, outside the host: the answer is complete when it runs (Spring Security's 401/403 bodies, the
 * {@code /error} page and the error report valve have all written theirs). Closing is asked of Tomcat only after
 * that answer is sent, because asking marks the exchange as an error, and a host that saw the mark would replace
 * the body the application wrote with its error page (how a first version lost the 401/403 problem types).
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
            refuse(request, response);
            return;
        }
        getNext().invoke(request, response);
        if (body && !request.isAsync() && !bodyRead(request)) {
            if (!response.isCommitted()) {
                response.setHeader("Connection", "close");
            }
            // The answer goes out as the application wrote it (finishing is idempotent: the adapter's own call
            // after this valve finds it done) ...
            response.finishResponse();
            // ... and then the rest of the body is dropped with the connection, not read.
            request.getCoyoteRequest().action(ActionCode.DISABLE_SWALLOW_INPUT, null);
        }
    }

    private static boolean bodyRead(Request request) {
        AtomicBoolean read = new AtomicBoolean();
        request.getCoyoteRequest().action(ActionCode.REQUEST_BODY_FULLY_READ, read);
        return read.get();
    }

    private static void refuse(Request request, Response response) throws IOException {
        String detail = "a " + request.getMethod() + " request takes no body; send it without Content-Length or "
                + "Transfer-Encoding";
        String instance = request.getRequestURI().replaceAll("[^A-Za-z0-9/._~-]", "");
        response.setStatus(400);
        response.setHeader("Connection", "close");
        response.setContentType("application/problem+json");
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        response.getOutputStream().write(("{\"type\":\"" + ProblemHandlers.BASE + "validation\",\"title\":"
                + "\"Invalid request\",\"status\":400,\"detail\":\"" + detail + "\",\"instance\":\"" + instance
                + "\"}").getBytes(StandardCharsets.UTF_8));
        response.finishResponse();
        request.getCoyoteRequest().action(ActionCode.DISABLE_SWALLOW_INPUT, null);
    }
}
