package dev.schedsim.http;

/** A request body sent with a Content-Type that is not JSON: 415. */
class NotJsonException extends RuntimeException {
    NotJsonException(String contentType) {
        super("the body must be JSON: send Content-Type: application/json (got '" + contentType + "')");
    }
}
