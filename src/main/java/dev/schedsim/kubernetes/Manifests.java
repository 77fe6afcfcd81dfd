package dev.schedsim.kubernetes;

import dev.schedsim.json.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;

/**
 * Where the pod is in what a user pastes: a Pod, a Deployment, ReplicaSet, StatefulSet, DaemonSet or Job (their
 * {@code spec.template}), any of them in a {@code List} (what {@code kubectl get ... -o yaml} prints), or the same
 * as YAML text in a JSON string (several documents separated by {@code ---} read as a List). Users paste what
 * kubectl gave them; the exact wrapping should not be theirs to strip.
 */
public final class Manifests {
    /** The kinds whose object holds a pod template at {@code spec.template}. */
    static final Set<String> TEMPLATE_KINDS = Set.of("Deployment", "ReplicaSet", "StatefulSet", "DaemonSet", "Job");

    private Manifests() {
    }

    /**
     * The object that holds the pod: {@code object} is it (null with {@code issue}); {@code field} names it in the
     * request (e.g. {@code kubernetes.pod.items[0]}).
     */
    public record Located(JsonNode object, String field, PodCgroups.Issue issue) {
        /** The object's kind ("Pod" when it says none and has no template). */
        public String kind() {
            String k = object.path("kind").asString("");
            return !k.isEmpty() ? k : object.path("spec").has("template") ? "Deployment" : "Pod";
        }

        /** Whether the pod is the object's spec.template (a workload object) rather than the object itself. */
        public boolean templated() {
            return TEMPLATE_KINDS.contains(kind()) || object.path("kind").asString("").isEmpty()
                    && object.path("spec").has("template");
        }
    }

    /** Finds the pod-bearing object in {@code manifest} (given under {@code field}). */
    public static Located locate(JsonNode manifest, String field) {
        JsonNode m = manifest;
        if (m != null && m.isString()) {
            try {
                m = yaml(m.asString());
            } catch (JacksonException e) {
                return new Located(null, field, new PodCgroups.Issue(field, "a string here is read as YAML, and "
                        + "this is not YAML: " + firstLine(e.getOriginalMessage())));
            }
        }
        if (m == null || !m.isObject()) {
            return new Located(null, field, new PodCgroups.Issue(field, "must be a Pod, or a Deployment, "
                    + "StatefulSet, DaemonSet, ReplicaSet or Job (their spec.template), or a List of one; as an "
                    + "object, or as YAML text"));
        }
        String kind = m.path("kind").asString("");
        if (!kind.equals("List") && !(kind.endsWith("List") && m.has("items"))) {
            return new Located(m, field, null);
        }
        JsonNode items = m.path("items");
        List<Integer> pods = new ArrayList<>();
        List<String> all = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            JsonNode it = items.get(i);
            String k = it.path("kind").asString("");
            all.add("items[" + i + "]: " + (k.isEmpty() ? "?" : k) + " " + it.path("metadata").path("name").asString(""));
            if (k.equals("Pod") || TEMPLATE_KINDS.contains(k)) {
                pods.add(i);
            }
        }
        if (pods.size() == 1) {
            return new Located(items.get(pods.get(0)), field + ".items[" + pods.get(0) + "]", null);
        }
        return new Located(null, field, new PodCgroups.Issue(field + ".items", pods.isEmpty()
                ? "this List holds no Pod or workload with a pod template: " + all
                : "this List holds " + pods.size() + " objects with a pod; give one of them alone: " + all));
    }

    /** The app containers of the pod in {@code manifest} (none when it has no pod). */
    public static List<JsonNode> containers(JsonNode manifest) {
        Located at = locate(manifest, "pod");
        List<JsonNode> out = new ArrayList<>();
        if (at.issue() == null) {
            JsonNode spec = at.templated() ? at.object().path("spec").path("template").path("spec")
                    : at.object().path("spec");
            spec.path("containers").forEach(out::add);
        }
        return out;
    }

    /** A container's CPU request in millicores after the API server's defaulting (to the limit); 0 without. */
    public static long cpuRequestMilli(JsonNode container) {
        JsonNode r = container.path("resources");
        JsonNode q = r.path("requests").has("cpu") ? r.path("requests").path("cpu") : r.path("limits").path("cpu");
        Quantity parsed = Quantity.parse(q.isNumber() ? q.decimalValue().toPlainString() : q.asString(null));
        return parsed == null ? 0 : parsed.milliValue();
    }

    /** YAML text as a tree; several documents as a List of them. */
    private static JsonNode yaml(String text) {
        List<JsonNode> docs = new ArrayList<>();
        try (var it = Json.YAML.readerFor(JsonNode.class).<JsonNode>readValues(text)) {
            while (it.hasNextValue()) {
                JsonNode d = it.nextValue();
                if (d != null && !d.isNull() && !d.isMissingNode()) {
                    docs.add(d);
                }
            }
        }
        if (docs.size() == 1) {
            return docs.get(0);
        }
        ArrayNode items = Json.REQUEST.createArrayNode();
        docs.forEach(items::add);
        return Json.REQUEST.createObjectNode().put("kind", "List").set("items", items);
    }

    private static String firstLine(String s) {
        return s == null ? "" : s.split("\n")[0];
    }
}
