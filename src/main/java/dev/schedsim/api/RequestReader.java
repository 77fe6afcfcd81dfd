package dev.schedsim.api;

import dev.schedsim.simulation.SchedsimProperties;
import jakarta.servlet.http.HttpServletRequest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads request bodies: bounded by {@code schedsim.max-body-size} (413 beyond, whether or not the client sent a
 * Content-Length) and parsed strictly: unknown fields, duplicate keys, fractions where integers belong and
 * trailing content are rejected (400 naming the field), so that a typo such as {@code "cpumax"} is reported
 * instead of silently simulating an unlimited group.
 */
@Component
class RequestReader {
    private final JsonMapper strict = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();
    private final long maxBytes;

    RequestReader(SchedsimProperties properties) {
        this.maxBytes = properties.maxBodySize().toBytes();
    }

    JsonMapper mapper() {
        return strict;
    }

    /** The body as UTF-8 text, at most {@code schedsim.max-body-size} bytes. */
    String body(HttpServletRequest request) {
        if (request.getContentLengthLong() > maxBytes) {
            throw new PayloadTooLargeException(maxBytes);
        }
        try (InputStream in = request.getInputStream()) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buf = new byte[8192];
            int n;
            while ((n = in.read(buf)) != -1) {
                out.write(buf, 0, n);
                if (out.size() > maxBytes) {
                    throw new PayloadTooLargeException(maxBytes);
                }
            }
            return out.toString(StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new InvalidRequestException(true, List.of(new Violation("$", "could not read the body")));
        }
    }

    /** Parses {@code json} into {@code type}; 400 naming the field on anything that does not fit. */
    <T> T read(String json, Class<T> type) {
        if (json == null || json.isBlank()) {
            throw new InvalidRequestException(true, List.of(new Violation("$", "a JSON body is required")));
        }
        try {
            T value = strict.readValue(json, type);
            if (value == null) {
                throw new InvalidRequestException(true, List.of(new Violation("$", "a JSON object is required")));
            }
            return value;
        } catch (JacksonException e) {
            throw new InvalidRequestException(true, List.of(new Violation(path(e), message(e))));
        }
    }

    /** {@code cgroups[1].cpuMax} from Jackson's reference chain; {@code $} for the document itself. */
    static String path(JacksonException e) {
        StringBuilder b = new StringBuilder();
        for (JacksonException.Reference r : e.getPath()) {
            if (r.getPropertyName() != null) {
                if (b.length() > 0) {
                    b.append('.');
                }
                b.append(r.getPropertyName());
            } else if (r.getIndex() >= 0) {
                b.append('[').append(r.getIndex()).append(']');
            }
        }
        return b.length() == 0 ? "$" : b.toString();
    }

    /** Jackson's message without the source location and class names. */
    private static String message(JacksonException e) {
        String m = e.getOriginalMessage();
        if (m == null) {
            return "malformed JSON";
        }
        if (m.startsWith("Unrecognized property") || m.startsWith("Unrecognized field")) {
            return "unknown field";
        }
        m = m.replaceAll("`[a-zA-Z0-9_.$]+\\.([A-Za-z0-9_]+)`", "$1");
        List<String> lines = new ArrayList<>(List.of(m.split("\n")));
        String first = lines.get(0);
        return first.length() > 300 ? first.substring(0, 300) : first;
    }
}
