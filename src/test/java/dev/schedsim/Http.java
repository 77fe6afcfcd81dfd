package dev.schedsim;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A tiny real-HTTP client for end-to-end tests. */
public final class Http {
    public static final JsonMapper JSON = JsonMapper.builder().build();
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final String base;
    private final int port;
    /** The API key sent with every request (Authorization: Bearer), or null. */
    private final String key;

    public Http(int port) {
        this(port, null);
    }

    private Http(int port, String key) {
        this.base = "http://localhost:" + port;
        this.port = port;
        this.key = key;
    }

    /** The same service, every request with {@code Authorization: Bearer <key>} (null: none). */
    public Http withKey(String key) {
        return new Http(port, key);
    }

    public HttpResponse<String> get(String path) {
        return send(HttpRequest.newBuilder(URI.create(base + path)).GET());
    }

    /** GET with an {@code Accept} header (the report in Markdown, say). */
    public HttpResponse<String> get(String path, String accept) {
        return send(HttpRequest.newBuilder(URI.create(base + path)).header("Accept", accept).GET());
    }

    public HttpResponse<String> post(String path, String body) {
        return send(HttpRequest.newBuilder(URI.create(base + path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    public HttpResponse<String> delete(String path) {
        return send(HttpRequest.newBuilder(URI.create(base + path)).DELETE());
    }

    public HttpResponse<String> send(HttpRequest.Builder b) {
        if (key != null) {
            b.setHeader("Authorization", "Bearer " + key);
        }
        try {
            return client.send(b.timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public static JsonNode json(HttpResponse<String> r) {
        return JSON.readTree(r.body());
    }

    /**
     * Polls GET /api/v1/simulations/{id} until the simulation is RUNNING and its progress (and event count) has
     * moved past 0; fails when it reaches a final status instead. Returns that view.
     */
    public JsonNode awaitRunningWithProgress(String id) {
        for (int i = 0; i < 6000; i++) {
            JsonNode n = json(get("/api/v1/simulations/" + id));
            String s = n.path("status").asString();
            if (s.equals("RUNNING") && n.path("progress").asDouble() > 0) {
                return n;
            }
            if (!s.equals("QUEUED") && !s.equals("RUNNING")) {
                throw new AssertionError("simulation " + id + " ended before running: " + n);
            }
            pause();
        }
        throw new AssertionError("simulation " + id + " never showed progress while RUNNING");
    }

    /** Cancels a simulation (200 CANCELLED) and waits until its row is final. */
    public JsonNode cancel(String id) {
        HttpResponse<String> r = post("/api/v1/simulations/" + id + "/cancel", "");
        if (r.statusCode() != 200) {
            throw new AssertionError("cancel " + id + ": " + r.statusCode() + " " + r.body());
        }
        return awaitFinished(id);
    }

    /** Polls GET /api/v1/simulations/{id} until a final status (bounded by a count, not a time assertion). */
    public JsonNode awaitFinished(String id) {
        for (int i = 0; i < 6000; i++) {
            JsonNode n = json(get("/api/v1/simulations/" + id));
            String s = n.path("status").asString();
            if (!s.equals("QUEUED") && !s.equals("RUNNING")) {
                return n;
            }
            pause();
        }
        throw new AssertionError("simulation " + id + " did not finish");
    }

    /** Polls GET /api/v1/advice/{id} until it is no longer RUNNING (bounded by a count, not a time assertion). */
    public JsonNode awaitAdvice(String id) {
        for (int i = 0; i < 6000; i++) {
            JsonNode n = json(get("/api/v1/advice/" + id));
            if (!n.path("status").asString().equals("RUNNING")) {
                return n;
            }
            pause();
        }
        throw new AssertionError("advice " + id + " did not finish");
    }

    private static void pause() {
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
