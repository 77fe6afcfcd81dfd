package dev.schedsim.http;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.springframework.http.HttpStatus;

/**
 * The errors Tomcat answers itself, before a request reaches Spring (a URL or header over the limits, {@code %00}
 * or an encoded {@code /} in the path, a malformed chunk): problem+json like every other error, instead of
 * Tomcat's HTML page. Installed as the host's error report valve by {@link ProblemErrorPages}.
 */
public class ProblemErrorReportValve extends ErrorReportValve {
    @Override
    protected void report(Request request, Response response, Throwable t) {
        int status = response.getStatus();
        if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        HttpStatus s = HttpStatus.resolve(status);
        String title = s == null ? "HTTP " + status : s.getReasonPhrase();
        String detail = switch (status) {
            case 400 -> "the request could not be read as HTTP (a URL or header too long, a NUL or an encoded '/'"
                    + " in the path, or a malformed body encoding)";
            case 404 -> "no such resource";
            case 405 -> "this method is not allowed here";
            default -> title;
        };
        String slug = ProblemHandlers.typeOf(status);
        String json = "{\"type\":\"" + ProblemHandlers.BASE + slug + "\",\"title\":\"" + title + "\",\"status\":"
                + status + ",\"detail\":\"" + detail.replace("'", "\\u0027") + "\"}";
        try {
            response.setContentType("application/problem+json");
            response.setCharacterEncoding(StandardCharsets.UTF_8.name());
            Writer w = response.getReporter();
            if (w != null) {
                w.write(json);
                response.finishResponse();
            }
        } catch (IOException | IllegalStateException e) {
            // The connection is gone or the response committed: nothing more can be said.
        }
    }
}
