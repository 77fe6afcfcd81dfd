package dev.schedsim.kubernetes;

import dev.schedsim.json.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A container's new {@code limits.cpu} as what a user applies: a strategic-merge patch of the object they gave
 * (the containers list merges by name, so the patch names only that container), the {@code kubectl patch}
 * command, the Helm values {@code resources:} block, and the container's resources after the patch.
 *
 * <p>Requests are pinned where the patch would otherwise change them: a container without {@code requests.cpu}
 * has its limit as request (the API server's defaulting), so changing the limit would move its cpu.weight too,
 * which the advisor did not simulate; and a request above the new limit is invalid (requests must not exceed
 * limits), so it comes down to the limit, with a note.
 */
public final class ContainerPatch {
    private ContainerPatch() {
    }

    /** What to apply to one container; {@code notes} say what else changed or what the command needs. */
    public record Patch(String kind, String name, String namespace, String container, JsonNode patch,
                        String kubectl, String helmValues, JsonNode resources, List<String> notes) {
    }

    /**
     * The patch setting {@code container}'s limits.cpu to {@code millicores}, or removing it when null; null when
     * the manifest has no such container.
     */
    public static Patch of(JsonNode manifest, String container, Long millicores) {
        Manifests.Located at = Manifests.locate(manifest, "pod");
        if (at.issue() != null) {
            return null;
        }
        JsonNode object = at.object();
        JsonNode podSpec = at.templated() ? object.path("spec").path("template").path("spec") : object.path("spec");
        JsonNode c = null;
        for (JsonNode x : podSpec.path("containers")) {
            if (x.path("name").asString("").equals(container)) {
                c = x;
            }
        }
        if (c == null) {
            return null;
        }
        List<String> notes = new ArrayList<>();
        JsonNode before = c.path("resources").isObject() ? c.path("resources") : Json.REQUEST.createObjectNode();
        ObjectNode change = Json.REQUEST.createObjectNode();
        ObjectNode limits = change.putObject("limits");
        if (millicores == null) {
            limits.putNull("cpu"); // (null deletes a key in a strategic-merge patch)
        } else {
            limits.put("cpu", millicores + "m");
        }
        JsonNode requestNode = before.path("requests").path("cpu");
        JsonNode oldLimitNode = before.path("limits").path("cpu");
        Quantity request = quantity(requestNode);
        if (request == null && quantity(oldLimitNode) != null) {
            request = quantity(oldLimitNode);
            requestNode = oldLimitNode;
            change.putObject("requests").set("cpu", oldLimitNode);
            notes.add("requests.cpu pinned to " + text(oldLimitNode) + ": without one the API server takes the "
                    + "limit as the request, and the new limit would move the container's cpu.weight too");
        }
        if (request != null && millicores != null && request.milliValue() > millicores) {
            change.putObject("requests").put("cpu", millicores + "m");
            notes.add("requests.cpu lowered from " + text(requestNode) + " to " + millicores + "m: a request may not exceed "
                    + "the limit; the container's cpu.weight falls with it (the advisor simulated the old weight)");
        }
        ObjectNode patch = patchFor(at.templated(), container, change);
        ObjectNode after = merged(before, change);
        String kind = at.kind();
        String name = object.path("metadata").path("name").asString("NAME");
        String namespace = object.path("metadata").path("namespace").asString(null);
        String kubectl = kubectl(kind, name, namespace, patch, millicores == null, notes);
        String helm = Json.YAML.writeValueAsString(Json.REQUEST.createObjectNode().set("resources", after))
                .replaceFirst("^---\\s*\\n", "");
        return new Patch(kind, name, namespace, container, patch, kubectl, helm, after, List.copyOf(notes));
    }

    /** The strategic-merge patch that sets {@code change} in the container's resources. */
    private static ObjectNode patchFor(boolean templated, String container, ObjectNode change) {
        ObjectNode patch = Json.REQUEST.createObjectNode();
        ObjectNode spec = patch.putObject("spec");
        if (templated) {
            spec = spec.putObject("template").putObject("spec");
        }
        ObjectNode c = spec.putArray("containers").addObject();
        c.put("name", container);
        c.set("resources", change);
        return patch;
    }

    /** {@code before} with {@code change} merged in as the API server merges it (a null deletes the key). */
    private static ObjectNode merged(JsonNode before, ObjectNode change) {
        ObjectNode out = (ObjectNode) before.deepCopy();
        for (var e : change.properties()) {
            ObjectNode section = out.path(e.getKey()).isObject() ? (ObjectNode) out.path(e.getKey())
                    : out.putObject(e.getKey());
            for (var f : e.getValue().properties()) {
                if (f.getValue().isNull()) {
                    section.remove(f.getKey());
                } else {
                    section.set(f.getKey(), f.getValue());
                }
            }
        }
        return out;
    }

    private static Quantity quantity(JsonNode n) {
        return n.isString() || n.isNumber() ? Quantity.parse(text(n)) : null;
    }

    private static String text(JsonNode n) {
        return n.isNumber() ? n.decimalValue().toPlainString() : n.asString("");
    }

    /** The kubectl command applying {@code patch} to the object (a bare pod through its resize subresource). */
    public static String command(String kind, String name, String namespace, JsonNode patch) {
        String ns = namespace == null ? "" : " -n " + namespace;
        String body = " --type strategic -p '" + Json.REQUEST.writeValueAsString(patch) + "'";
        if (!kind.equals("Pod")) {
            // (patching the template rolls the workload's pods; they start with the new limits)
            return "kubectl" + ns + " patch " + kind.toLowerCase(Locale.ROOT) + " " + name + body;
        }
        return "kubectl" + ns + " patch pod " + name + " --subresource resize" + body;
    }

    private static String kubectl(String kind, String name, String namespace, JsonNode patch, boolean removing,
                                  List<String> notes) {
        if (kind.equals("Pod")) {
            podNote(removing, notes);
        }
        return command(kind, name, namespace, patch);
    }

    private static void podNote(boolean removing, List<String> notes) {
        if (removing) {
            notes.add("a running pod's limit cannot be removed in place: change it where the pod comes from and "
                    + "re-create the pod");
        } else {
            notes.add("a bare pod is resized in place (the resize subresource, Kubernetes 1.33 and later); "
                    + "change it where the pod comes from too, or the next pod has the old limit");
        }
    }
}
