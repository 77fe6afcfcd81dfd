package dev.schedsim.kubernetes;

import dev.schedsim.Http;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Applies a strategic-merge patch as a user would: with kubectl's own merge ({@code kubectl patch --local}, no
 * cluster needed) when kubectl is on the PATH, else with the rules kubectl applies to a pod spec (maps merge, null
 * deletes, the containers list merges by name), so that the test runs without it too.
 */
public final class StrategicMerge {
    private StrategicMerge() {
    }

    /** Whether kubectl is here, and so the reference merge is the one used. */
    public static boolean kubectl() {
        try {
            Process p = new ProcessBuilder("kubectl", "version", "--client").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (Exception e) {
            return false;
        }
    }

    public static JsonNode apply(JsonNode object, JsonNode patch) throws Exception {
        if (!kubectl()) {
            return merge(object, patch);
        }
        Path f = Files.createTempFile("object", ".json");
        try {
            Files.writeString(f, object.toString());
            Process p = new ProcessBuilder("kubectl", "patch", "--local", "-f", f.toString(), "--type", "strategic",
                    "-p", patch.toString(), "-o", "json").start();
            String out = new String(p.getInputStream().readAllBytes());
            String err = new String(p.getErrorStream().readAllBytes());
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new AssertionError("kubectl patch failed: " + err);
            }
            return Http.JSON.readTree(out);
        } finally {
            Files.deleteIfExists(f);
        }
    }

    private static JsonNode merge(JsonNode object, JsonNode patch) {
        if (!object.isObject() || !patch.isObject()) {
            return patch.deepCopy();
        }
        ObjectNode out = (ObjectNode) object.deepCopy();
        for (var e : patch.properties()) {
            JsonNode v = e.getValue();
            if (v.isNull()) {
                out.remove(e.getKey());
            } else if (e.getKey().equals("containers") && v.isArray() && out.path("containers").isArray()) {
                ArrayNode merged = out.putArray("containers");
                for (JsonNode c : object.path("containers")) {
                    JsonNode change = null;
                    for (JsonNode pc : v) {
                        if (pc.path("name").equals(c.path("name"))) {
                            change = pc;
                        }
                    }
                    merged.add(change == null ? c : merge(c, change));
                }
            } else {
                out.set(e.getKey(), out.has(e.getKey()) ? merge(out.path(e.getKey()), v) : v.deepCopy());
            }
        }
        return out;
    }
}
