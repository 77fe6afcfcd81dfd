package dev.schedsim.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedsim.Http;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The patch of a new limits.cpu, applied with kubectl's own strategic merge (or its rules without kubectl): the
 * container's resources afterwards are what the patch says they are, and its requests do not move unless they
 * must.
 */
class ContainerPatchTests {
    static final String POD = """
            {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "checkout", "namespace": "shop"},
             "spec": {"containers": [
               {"name": "web", "image": "x", "resources": {"requests": {"cpu": "250m", "memory": "1Gi"},
                                                           "limits": {"cpu": "300m", "memory": "1Gi"}}},
               {"name": "side", "image": "y", "resources": {"limits": {"cpu": "1"}}}]}}""";

    private static JsonNode container(JsonNode object, String name) {
        JsonNode spec = object.path("spec").has("template") ? object.path("spec").path("template").path("spec")
                : object.path("spec");
        for (JsonNode c : spec.path("containers")) {
            if (c.path("name").asString().equals(name)) {
                return c;
            }
        }
        throw new AssertionError("no container " + name);
    }

    @Test
    void aBarePodIsResizedInPlaceAndKeepsItsOtherResources() throws Exception {
        JsonNode pod = Http.JSON.readTree(POD);
        ContainerPatch.Patch p = ContainerPatch.of(pod, "web", 420L);
        assertThat(p.kubectl()).startsWith("kubectl -n shop patch pod checkout --subresource resize --type strategic");
        JsonNode patched = StrategicMerge.apply(pod, p.patch());
        assertThat(container(patched, "web").path("resources")).isEqualTo(p.resources());
        assertThat(p.resources().path("limits").path("cpu").asString()).isEqualTo("420m");
        assertThat(p.resources().path("requests")).isEqualTo(container(pod, "web").path("resources").path("requests"));
        assertThat(p.resources().path("limits").path("memory").asString()).isEqualTo("1Gi");
        assertThat(container(patched, "side")).isEqualTo(container(pod, "side"));
        assertThat(Http.JSON.readTree(p.patch().toString()).path("spec").path("containers").size()).isEqualTo(1);
    }

    @Test
    void aContainerWithoutARequestKeepsTheWeightItHadAndARequestAboveTheLimitComesDown() throws Exception {
        JsonNode pod = Http.JSON.readTree(POD);
        // side has only a limit: the API server made it its request; the patch pins it
        ContainerPatch.Patch up = ContainerPatch.of(pod, "side", 1500L);
        JsonNode patched = StrategicMerge.apply(pod, up.patch());
        assertThat(container(patched, "side").path("resources")).isEqualTo(up.resources());
        assertThat(up.resources().path("requests").path("cpu").asString()).isEqualTo("1");
        assertThat(up.notes()).anyMatch(n -> n.contains("pinned"));
        // web's 250m request above a 200m limit would be refused: it comes down with it
        ContainerPatch.Patch down = ContainerPatch.of(pod, "web", 200L);
        assertThat(StrategicMerge.apply(pod, down.patch()).path("spec").path("containers").get(0).path("resources"))
                .isEqualTo(down.resources());
        assertThat(down.resources().path("requests").path("cpu").asString()).isEqualTo("200m");
        assertThat(down.notes()).anyMatch(n -> n.contains("lowered"));
    }

    @Test
    void removingTheLimitOfADeploymentsContainerInAYamlList() throws Exception {
        String yaml = """
                apiVersion: v1
                kind: List
                items:
                - apiVersion: v1
                  kind: Service
                  metadata: {name: checkout}
                - apiVersion: apps/v1
                  kind: Deployment
                  metadata: {name: checkout, namespace: shop}
                  spec:
                    selector: {matchLabels: {app: checkout}}
                    template:
                      metadata: {labels: {app: checkout}}
                      spec:
                        containers:
                        - name: web
                          image: x
                          resources:
                            requests: {cpu: 250m}
                            limits: {cpu: 300m, memory: 1Gi}
                """;
        JsonNode text = Http.JSON.getNodeFactory().stringNode(yaml);
        ContainerPatch.Patch p = ContainerPatch.of(text, "web", null);
        assertThat(p.kind()).isEqualTo("Deployment");
        assertThat(p.kubectl()).startsWith("kubectl -n shop patch deployment checkout --type strategic -p '");
        JsonNode deployment = Manifests.locate(text, "pod").object();
        JsonNode patched = StrategicMerge.apply(deployment, p.patch());
        JsonNode r = container(patched, "web").path("resources");
        assertThat(r.path("limits").has("cpu")).isFalse();
        assertThat(r.path("limits").path("memory").asString()).isEqualTo("1Gi");
        assertThat(r.path("requests").path("cpu").asString()).isEqualTo("250m");
        assertThat(r).isEqualTo(p.resources());
        // the Helm values block is the same resources
        assertThat(dev.schedsim.json.Json.YAML.readTree(p.helmValues()).path("resources")).isEqualTo(p.resources());
    }

    @Test
    void aListWithSeveralPodsNamesThem() {
        JsonNode list = Http.JSON.readTree("""
                {"kind": "List", "items": [{"kind": "Pod", "metadata": {"name": "a"}},
                                           {"kind": "Deployment", "metadata": {"name": "b"}}]}""");
        Manifests.Located at = Manifests.locate(list, "kubernetes.pod");
        assertThat(at.issue().field()).isEqualTo("kubernetes.pod.items");
        assertThat(at.issue().message()).contains("Pod a", "Deployment b");
    }
}
