package dev.schedsim.http;

import dev.schedsim.SchedsimProperties;
import dev.schedsim.json.Json;
import jakarta.servlet.http.HttpServletRequest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.exc.InvalidFormatException;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.PropertyBindingException;

/**
 * Reads request bodies: bounded by {@code schedsim.max-body-size} (413 beyond, whether or not the client sent a
 * Content-Length) and parsed strictly: unknown fields, duplicate keys, fractions where integers belong and
 * trailing content are rejected (400 naming the field), so that a typo such as {@code "cpumax"} is reported
 * instead of silently simulating an unlimited group.
 */
@Component
public class RequestReader {
    private final long maxBytes;
    private final long bodyTimeoutNs;
    private final BodyReadPermits bodyReads;

    public RequestReader(SchedsimProperties properties) {
        this.maxBytes = properties.maxBodySize().toBytes();
        this.bodyTimeoutNs = properties.bodyTimeout().toNanos();
        this.bodyReads = new BodyReadPermits(properties.maxBodyReads(), properties.maxBodyReadsPerClient());
    }

    /** The body as UTF-8 text, at most {@code schedsim.max-body-size} bytes. */
    public String body(HttpServletRequest request) {
        String type = request.getContentType();
        if (type != null && !type.isBlank() && !isJson(type)) {
            throw new NotJsonException(type.length() > 100 ? type.substring(0, 100) + "..." : type);
        }
        return bounded(request);
    }

    /**
     * The body as JSON text: as sent, or converted from YAML when the Content-Type is YAML
     * ({@code application/yaml}, {@code application/x-yaml}, {@code text/yaml}), so that a pod manifest can be
     * pasted as kubectl prints it. The JSON is then read as strictly as any.
     */
    public String jsonOrYamlBody(HttpServletRequest request) {
        String type = request.getContentType();
        if (type == null || !isYaml(type)) {
            return body(request);
        }
        String yaml = bounded(request);
        if (yaml.isBlank()) {
            throw new InvalidRequestException(true, List.of(new Violation("$", "a YAML body is required")));
        }
        try {
            tools.jackson.databind.JsonNode tree = Json.YAML.readTree(yaml);
            if (tree == null || !tree.isObject()) {
                throw new InvalidRequestException(true, List.of(new Violation("$", "a YAML mapping (an object) is "
                        + "required")));
            }
            return Json.REQUEST.writeValueAsString(tree);
        } catch (JacksonException e) {
            throw new InvalidRequestException(true, List.of(new Violation(path(e), "malformed YAML: "
                    + message(e))));
        }
    }

    static boolean isYaml(String contentType) {
        String t = contentType.split(";", 2)[0].trim().toLowerCase(java.util.Locale.ROOT);
        return t.equals("application/yaml") || t.equals("application/x-yaml") || t.equals("text/yaml");
    }

    private String bounded(HttpServletRequest request) {
        if (request.getContentLengthLong() > maxBytes) {
            throw new PayloadTooLargeException(maxBytes);
        }
        try (BodyReadPermits.Permit permit = bodyReads.take(request)) {
            return readBody(request);
        }
    }

    private String readBody(HttpServletRequest request) {
        long start = System.nanoTime();
        String encoding = request.getHeader("Content-Encoding");
        boolean gzip = encoding != null && encoding.trim().equalsIgnoreCase("gzip");
        if (encoding != null && !gzip && !encoding.trim().equalsIgnoreCase("identity")) {
            throw new InvalidRequestException(false, List.of(new Violation("Content-Encoding",
                    "only gzip (or none) is accepted, not '" + encoding + "'")));
        }
        // (a gzip body is bounded as it is after decompression, like any other)
        try (InputStream in = gzip ? new java.util.zip.GZIPInputStream(request.getInputStream())
                : request.getInputStream()) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buf = new byte[8192];
            int n;
            // Each read waits at most the body timeout (Tomcat's upload timeout, ProblemErrorPages); the whole
            // body too, so that a client trickling a byte at a time cannot hold a request thread for long.
            while ((n = in.read(buf)) != -1) {
                out.write(buf, 0, n);
                if (out.size() > maxBytes) {
                    throw new PayloadTooLargeException(maxBytes);
                }
                if (System.nanoTime() - start > bodyTimeoutNs) {
                    throw new RequestTimeoutException(bodyTimeoutNs / 1_000_000);
                }
            }
            return out.toString(StandardCharsets.UTF_8);
        } catch (java.util.zip.ZipException e) {
            throw new InvalidRequestException(true, List.of(new Violation("$", "the body is not valid gzip ("
                    + e.getMessage() + ")")));
        } catch (java.net.SocketTimeoutException e) {
            throw new RequestTimeoutException(bodyTimeoutNs / 1_000_000);
        } catch (IOException e) {
            if (System.nanoTime() - start > bodyTimeoutNs) {
                throw new RequestTimeoutException(bodyTimeoutNs / 1_000_000);
            }
            throw new InvalidRequestException(true, List.of(new Violation("$", "could not read the body")));
        }
    }

    /**
     * application/json or any {@code +json} type, parameters (charset) allowed. A request without a Content-Type
     * is read as JSON: curl and many scripts send none.
     */
    static boolean isJson(String contentType) {
        String t = contentType.split(";", 2)[0].trim().toLowerCase(java.util.Locale.ROOT);
        return t.equals("application/json") || (t.startsWith("application/") && t.endsWith("+json"));
    }

    /** Parses {@code json} into {@code type}; 400 naming the field on anything that does not fit. */
    public <T> T read(String json, Class<T> type) {
        if (json == null || json.isBlank()) {
            throw new InvalidRequestException(true, List.of(new Violation("$", "a JSON body is required")));
        }
        try {
            T value = Json.REQUEST.readValue(json, type);
            if (value == null) {
                throw new InvalidRequestException(true, List.of(new Violation("$", "a JSON object is required")));
            }
            return value;
        } catch (JacksonException e) {
            throw new InvalidRequestException(true, List.of(new Violation(path(e), message(e))), kind(e));
        }
    }

    /** The problem's kind: an unknown field or a value of the wrong type; null for JSON that does not parse. */
    static InvalidRequestException.Kind kind(JacksonException e) {
        if (e instanceof PropertyBindingException) {
            return InvalidRequestException.Kind.UNKNOWN_FIELD;
        }
        if (e instanceof MismatchedInputException m && m.getTargetType() != null) {
            return InvalidRequestException.Kind.WRONG_TYPE; // (InvalidFormatException is one too)
        }
        return null;
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

    /**
     * What did not fit, in the request's terms: the JSON type a field wants (never the Java class behind it),
     * the value that did not parse, the closest known field for a misspelt one; for a syntax error Jackson's
     * first line with any qualified Java name removed.
     */
    static String message(JacksonException e) {
        if (e instanceof PropertyBindingException u) {
            return "unknown field" + closest(u.getPropertyName(), u.getKnownPropertyIds());
        }
        if (e instanceof InvalidFormatException f && f.getTargetType() != null) {
            Object got = f.getValue();
            return "expected " + jsonType(f.getTargetType()) + ", got "
                    + abbreviate(got instanceof String ? "\"" + got + "\"" : String.valueOf(got));
        }
        if (e instanceof MismatchedInputException m && m.getTargetType() != null) {
            return "expected " + jsonType(m.getTargetType());
        }
        String m = e.getOriginalMessage();
        if (m == null) {
            return "malformed JSON";
        }
        if (e instanceof tools.jackson.core.exc.StreamConstraintsException) {
            return constraint(m);
        }
        m = JAVA_NAME.matcher(m.split("\n")[0]).replaceAll("value");
        return abbreviate(m);
    }

    /**
     * A parse limit in the request's terms: Jackson names the limit by its Java getter
     * ({@code StreamReadConstraints.getMaxNestingDepth()}), which tells a client nothing it can change.
     */
    static String constraint(String jackson) {
        java.util.regex.Matcher c = CONSTRAINT.matcher(jackson);
        if (!c.find()) {
            // (the one other limit: a number's exponent beyond 100 000)
            return "a number with an exponent beyond what the service reads; write it in plain digits";
        }
        String got = c.group(2);
        String max = c.group(3);
        return switch (c.group(1)) {
            case "Document nesting depth" -> "objects and lists nested " + got + " levels deep; at most " + max
                    + " are read (a simulation request needs fewer than 10)";
            case "Number value length" -> "a number of " + got + " characters; at most " + max + " are read";
            case "String value length" -> "a string of " + got + " characters; at most " + max + " are read";
            case "Name length" -> "a field name of " + got + " characters; at most " + max + " are read";
            case "Token count" -> "a document of " + got + " JSON values; at most " + max + " are read";
            default -> "a document of " + got + " characters; at most " + max + " are read";
        };
    }

    private static final java.util.regex.Pattern CONSTRAINT = java.util.regex.Pattern.compile(
            "(Document nesting depth|Number value length|String value length|Name length|Token count|Document "
                    + "length) \\((\\d+)\\) exceeds the maximum allowed \\((\\d+)");

    /** A qualified Java name, with generics and backticks: what must not reach a client. */
    private static final java.util.regex.Pattern JAVA_NAME = java.util.regex.Pattern.compile(
            "`?(?:[a-z][a-z0-9_]*\\.)+[A-Z][A-Za-z0-9_$]*(?:<[^>]*>+)?(?:\\[])*`?");

    /** The JSON a field of this Java type takes. */
    static String jsonType(Class<?> t) {
        if (t == Integer.class || t == int.class || t == Long.class || t == long.class || t == Short.class
                || t == short.class) {
            return "an integer";
        }
        if (t == Double.class || t == double.class || t == Float.class || t == float.class) {
            return "a number";
        }
        if (t == Boolean.class || t == boolean.class) {
            return "true or false";
        }
        if (t == String.class) {
            return "a string";
        }
        if (java.util.Collection.class.isAssignableFrom(t) || t.isArray()) {
            return "a list [...]";
        }
        return "an object {...}";
    }

    private static String closest(String name, java.util.Collection<Object> known) {
        if (name == null || known == null) {
            return "";
        }
        String best = null;
        int bestDistance = 3; // a suggestion only for up to two edits
        for (Object k : known) {
            int d = distance(name.toLowerCase(java.util.Locale.ROOT), k.toString().toLowerCase(java.util.Locale.ROOT));
            if (d < bestDistance) {
                bestDistance = d;
                best = k.toString();
            }
        }
        return best == null ? "" : "; did you mean '" + best + "'?";
    }

    /** Levenshtein distance, for names of a few dozen characters. */
    private static int distance(String a, String b) {
        if (Math.abs(a.length() - b.length()) > 2 || a.length() > 64 || b.length() > 64) {
            return Integer.MAX_VALUE;
        }
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int sub = prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                cur[j] = Math.min(sub, Math.min(prev[j] + 1, cur[j - 1] + 1));
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }

    private static String abbreviate(String s) {
        return s.length() > 300 ? s.substring(0, 300) + "..." : s;
    }
}
