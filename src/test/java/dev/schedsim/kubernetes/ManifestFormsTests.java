package dev.schedsim.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedsim.Http;
import dev.schedsim.json.Json;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The forms a pod comes in: a bare Pod, a Deployment, StatefulSet or DaemonSet (JSON or YAML text), alone or in a
 * List, all make the same cgroup tree as the Pod they stand for; a misspelt resources field is named.
 */
class ManifestFormsTests {
    static final String POD_SPEC = """
            {"containers": [
              {"name": "web", "image": "x", "resources": {"requests": {"cpu": "250m"}, "limits": {"cpu": "500m"}}},
              {"name": "log-shipper", "image": "y", "resources": {"requests": {"cpu": "50m"}}}]}""";
    static final PodCgroups.Options OPTIONS = new PodCgroups.Options(100_000, CpuConversions.Runtime.QUADRATIC, 2);

    private static ObjectNode pod() {
        ObjectNode p = Http.JSON.createObjectNode().put("apiVersion", "v1").put("kind", "Pod");
        p.putObject("metadata").put("name", "checkout").put("namespace", "shop");
        p.set("spec", Http.JSON.readTree(POD_SPEC));
        return p;
    }

    private static ObjectNode workload(String kind) {
        ObjectNode w = Http.JSON.createObjectNode().put("apiVersion", "apps/v1").put("kind", kind);
        w.putObject("metadata").put("name", "checkout").put("namespace", "shop");
        ObjectNode template = w.putObject("spec").putObject("template");
        template.putObject("metadata").putObject("labels").put("app", "checkout");
        template.set("spec", Http.JSON.readTree(POD_SPEC));
        return w;
    }

    private static ObjectNode list(JsonNode... items) {
        ObjectNode l = Http.JSON.createObjectNode().put("apiVersion", "v1").put("kind", "List");
        var a = l.putArray("items");
        for (JsonNode i : items) {
            a.add(i);
        }
        return l;
    }

    /** The tree's CPU settings (the pod cgroup's name comes from the uid, the same for one namespace/name). */
    private static List<String> settings(JsonNode manifest) {
        PodCgroups.Tree t = PodCgroups.convert(manifest, "pod", OPTIONS);
        assertThat(t.issues()).as(manifest.toString()).isEmpty();
        return t.cgroups().stream().map(c -> c.path() + " " + c.cpuMax() + " " + c.weight()).toList();
    }

    @Test
    void everyFormMakesThePodsTree() {
        List<String> pod = settings(pod());
        assertThat(pod).hasSizeGreaterThan(3);
        for (String kind : List.of("Deployment", "StatefulSet", "DaemonSet")) {
            assertThat(settings(workload(kind))).as(kind).isEqualTo(pod);
            assertThat(settings(list(Http.JSON.createObjectNode().put("kind", "Service"), workload(kind))))
                    .as(kind + " in a List").isEqualTo(pod);
            String yaml = Json.YAML.writeValueAsString(workload(kind));
            assertThat(settings(Http.JSON.getNodeFactory().stringNode(yaml))).as(kind + " as YAML").isEqualTo(pod);
        }
        assertThat(settings(list(pod()))).isEqualTo(pod);
        String docs = Json.YAML.writeValueAsString(Http.JSON.createObjectNode().put("kind", "Service")) + "---\n"
                + Json.YAML.writeValueAsString(pod());
        assertThat(settings(Http.JSON.getNodeFactory().stringNode(docs))).as("YAML documents").isEqualTo(pod);
    }

    @Test
    void aMisspeltResourcesFieldIsNamedWithTheOneMeant() {
        ObjectNode p = pod();
        ObjectNode r = (ObjectNode) p.path("spec").path("containers").get(0).path("resources");
        r.set("limit", r.remove("limits"));
        PodCgroups.Tree t = PodCgroups.convert(p, "pod", OPTIONS);
        assertThat(t.issues()).anyMatch(i -> i.field().equals("pod.spec.containers[0].resources.limit")
                && i.message().contains("did you mean 'limits'"));
        ObjectNode q = pod();
        ((ObjectNode) q.path("spec").path("containers").get(0).path("resources").path("requests")).put("cpus", "1");
        assertThat(PodCgroups.convert(q, "pod", OPTIONS).issues())
                .anyMatch(i -> i.message().contains("did you mean 'cpu'"));
        assertThat(PodCgroups.convert(Http.JSON.getNodeFactory().stringNode("a: [b"), "pod", OPTIONS).issues())
                .anyMatch(i -> i.message().contains("YAML"));
    }
}
