package dev.schedsim.http;

import dev.schedsim.DatabaseErrors;
import java.net.URI;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.TypeMismatchException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * Every error as {@code application/problem+json} (RFC 9457) with a stable {@code type} URI under
 * {@value #BASE}; validation problems list every violation under {@code errors}. Anything unexpected is a 500
 * without details (logged, never a stack trace to the client).
 */
@RestControllerAdvice
public class ProblemHandlers extends ResponseEntityExceptionHandler {
    static final String BASE = "https://schedsim.dev/problems/";
    private static final Logger log = LoggerFactory.getLogger(ProblemHandlers.class);

    static ProblemDetail problem(HttpStatus status, String type, String title, String detail) {
        ProblemDetail p = ProblemDetail.forStatusAndDetail(status, detail);
        p.setType(URI.create(BASE + type));
        p.setTitle(title);
        return p;
    }

    private static ResponseEntity<Object> send(ProblemDetail p, HttpHeaders headers) {
        return ResponseEntity.status(p.getStatus()).headers(headers).contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(p);
    }

    /** The problem type of an HTTP status that has no type of its own (Spring's and the container's errors). */
    static String typeOf(int status) {
        return switch (status) {
            case 400 -> "bad-request";
            case 404 -> "not-found";
            case 405 -> "method-not-allowed";
            case 406 -> "not-acceptable";
            case 408 -> "request-timeout";
            case 415 -> "unsupported-media-type";
            default -> status >= 500 ? "internal" : "http-" + status;
        };
    }

    /** A 503 the client should retry after {@code seconds}. */
    private static ResponseEntity<Object> unavailable(String type, String title, String detail, int seconds) {
        HttpHeaders h = new HttpHeaders();
        h.set(HttpHeaders.RETRY_AFTER, Integer.toString(seconds));
        return send(problem(HttpStatus.SERVICE_UNAVAILABLE, type, title, detail), h);
    }

    private static ResponseEntity<Object> send(ProblemDetail p) {
        return send(p, new HttpHeaders());
    }

    @ExceptionHandler(InvalidRequestException.class)
    ResponseEntity<Object> invalid(InvalidRequestException e) {
        List<Violation> errors = e.violations();
        String detail = errors.size() == 1 ? errors.get(0).field() + ": " + errors.get(0).message()
                : errors.size() + " fields are invalid; see errors";
        // (a value of the wrong type or an unknown field is well-formed JSON: its title says which it is)
        ProblemDetail p = e.kind() != null ? problem(HttpStatus.BAD_REQUEST, e.kind().type(), e.kind().title(), detail)
                : e.malformed() ? problem(HttpStatus.BAD_REQUEST, "malformed-json", "Malformed JSON", detail)
                : problem(HttpStatus.BAD_REQUEST, "validation", "Invalid request", detail);
        p.setProperty("errors", errors);
        return send(p);
    }

    @ExceptionHandler(LimitExceededException.class)
    ResponseEntity<Object> limit(LimitExceededException e) {
        LimitExceededException.Exceeded first = e.exceeded().get(0);
        ProblemDetail p = problem(HttpStatus.UNPROCESSABLE_CONTENT, "limit-exceeded", "Limit exceeded",
                first.message());
        p.setProperty("limit", first.limit());
        p.setProperty("value", first.value());
        p.setProperty("requested", first.requested());
        p.setProperty("errors", e.exceeded().stream().map(x -> new Violation(x.field(), x.message())).toList());
        return send(p);
    }

    @ExceptionHandler(BodyReadsBusyException.class)
    ResponseEntity<Object> bodyReadsBusy(BodyReadsBusyException e) {
        return unavailable("busy", "Busy receiving requests", e.getMessage(), 2);
    }

    @ExceptionHandler(BusyException.class)
    ResponseEntity<Object> busy(BusyException e) {
        return unavailable("busy", "Busy", e.getMessage(), e.retryAfterSeconds());
    }

    @ExceptionHandler(RequestTimeoutException.class)
    ResponseEntity<Object> bodyTimeout(RequestTimeoutException e) {
        HttpHeaders h = new HttpHeaders();
        h.set(HttpHeaders.CONNECTION, "close");
        return send(problem(HttpStatus.REQUEST_TIMEOUT, "request-timeout", "Request timeout", e.getMessage()), h);
    }

    @ExceptionHandler(NotJsonException.class)
    ResponseEntity<Object> notJson(NotJsonException e) {
        return send(problem(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "unsupported-media-type", "Unsupported media type",
                e.getMessage()));
    }

    /** Tomcat could not decode a query parameter (bytes that are not UTF-8, e.g. {@code ?name=%FF%FE}). */
    @ExceptionHandler(org.apache.tomcat.util.http.InvalidParameterException.class)
    ResponseEntity<Object> undecodable(org.apache.tomcat.util.http.InvalidParameterException e) {
        return send(problem(HttpStatus.BAD_REQUEST, "bad-request", "Bad request",
                "a query parameter is not valid percent-encoded UTF-8"));
    }

    @ExceptionHandler(PayloadTooLargeException.class)
    ResponseEntity<Object> tooLarge(PayloadTooLargeException e) {
        ProblemDetail p = problem(HttpStatus.CONTENT_TOO_LARGE, "payload-too-large", "Request body too large",
                "the body exceeds schedsim.max-body-size (" + e.max() + " bytes)");
        p.setProperty("limit", "schedsim.max-body-size");
        p.setProperty("value", e.max());
        return send(p);
    }

    @ExceptionHandler(NotFoundException.class)
    ResponseEntity<Object> notFound(NotFoundException e) {
        return send(problem(HttpStatus.NOT_FOUND, "not-found", "Not found", e.getMessage()));
    }

    @ExceptionHandler(StateConflictException.class)
    ResponseEntity<Object> conflict(StateConflictException e) {
        return send(problem(HttpStatus.CONFLICT, "state-conflict", "Conflict with the simulation's state",
                e.getMessage()));
    }

    @ExceptionHandler(NameConflictException.class)
    ResponseEntity<Object> nameConflict(NameConflictException e) {
        return send(problem(HttpStatus.CONFLICT, "name-conflict", "Name already taken", e.getMessage()));
    }

    @ExceptionHandler(IdempotencyConflictException.class)
    ResponseEntity<Object> idempotency(IdempotencyConflictException e) {
        return send(problem(HttpStatus.CONFLICT, "idempotency-conflict", "Idempotency-Key reused",
                e.getMessage()));
    }

    @ExceptionHandler(QueueFullException.class)
    ResponseEntity<Object> full(QueueFullException e) {
        return unavailable("queue-full", "Queue full", e.getMessage(), 30);
    }

    @ExceptionHandler(ClientLimitException.class)
    ResponseEntity<Object> clientLimit(ClientLimitException e) {
        HttpHeaders h = new HttpHeaders();
        h.set(HttpHeaders.RETRY_AFTER, Long.toString(e.retryAfterSeconds()));
        ProblemDetail p = problem(HttpStatus.TOO_MANY_REQUESTS, "client-limit", "Client limit reached",
                e.getMessage());
        p.setProperty("limit", e.limit());
        p.setProperty("value", e.value());
        return send(p, h);
    }

    @ExceptionHandler(Exception.class)
    ResponseEntity<Object> unexpected(Exception e) {
        if (DatabaseErrors.isOutage(e)) {
            // The database is away (spring.datasource.hikari.connection-timeout bounds the wait): fail fast and
            // say when to come back; nothing the client sent was wrong.
            log.warn("request failed, the database is unavailable: {}", e.toString());
            return unavailable("database-unavailable", "Database unavailable", "the service's database is not "
                    + "reachable right now; retry later (a submission with an Idempotency-Key is safe to retry)", 5);
        }
        log.error("unexpected error", e);
        return send(problem(HttpStatus.INTERNAL_SERVER_ERROR, "internal", "Internal error",
                "an unexpected error occurred; it was logged"));
    }

    /** Request parameters of the wrong type (e.g. {@code page=abc}) name the parameter. */
    @Override
    protected ResponseEntity<Object> handleTypeMismatch(TypeMismatchException ex, HttpHeaders headers,
                                                        HttpStatusCode status, WebRequest request) {
        String field = ex.getPropertyName() == null ? "$" : ex.getPropertyName();
        ProblemDetail p = problem(HttpStatus.BAD_REQUEST, "validation", "Invalid request",
                field + ": wrong type");
        p.setProperty("errors", List.of(new Violation(field, "must be "
                + (ex.getRequiredType() == null ? "a value" : RequestReader.jsonType(ex.getRequiredType())))));
        return send(p, headers);
    }

    /** Spring's own problems (405, 406, 415, unknown paths …) get a type URI too. */
    @Override
    protected ResponseEntity<Object> handleExceptionInternal(Exception ex, Object body, HttpHeaders headers,
                                                             HttpStatusCode status, WebRequest request) {
        ResponseEntity<Object> r = super.handleExceptionInternal(ex, body, headers, status, request);
        if (r != null && r.getBody() instanceof ProblemDetail p
                && (p.getType() == null || "about:blank".equals(p.getType().toString()))) {
            p.setType(URI.create(BASE + typeOf(status.value())));
            return ResponseEntity.status(r.getStatusCode()).headers(r.getHeaders())
                    .contentType(MediaType.APPLICATION_PROBLEM_JSON).body(p);
        }
        return r;
    }
}
