package dev.schedsim.http;

/** As many request bodies as {@code schedsim.max-body-reads} are being read already: 503 with Retry-After. */
class BodyReadsBusyException extends RuntimeException {
    BodyReadsBusyException(int max) {
        super(max + " request bodies are being received already (schedsim.max-body-reads); retry in a moment");
    }
}
