package dev.schedsim.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedsim.Http;
import dev.schedsim.ServiceTest;
import dev.schedsim.simulations.SimulationExamples;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import tools.jackson.databind.JsonNode;

/**
 * A pod through real HTTP on the real engine (issue 22, items 3 and 4): the Swagger example's Burstable pod
 * becomes the kubelet's cgroup tree, shown in the accepted request; its limited container is throttled; the result
 * reads in cAdvisor's names and the OpenMetrics download parses back to monotone counters ending at cpu.stat. Bad
 * pod input is a 400 naming the field.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.url=jdbc:h2:mem:kubernetes;DB_CLOSE_DELAY=-1", "spring.datasource.username=sa",
        "spring.datasource.password=", "schedsim.workers=2", "schedsim.poll-interval=20ms"})
class KubernetesPodTests extends ServiceTest {
    private static final String POD = "/kubepods/burstable/pod" + java.util.UUID.nameUUIDFromBytes(
            "shop/web".getBytes(java.nio.charset.StandardCharsets.UTF_8));

    private HttpResponse<String> postYaml(String body) {
        return http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/api/v1/simulations"))
                .header("Content-Type", "application/yaml").POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    /**
     * The example pod on the 2-CPU node: /kubepods weight 79 (2000m → 2048 shares), the Burstable QoS cgroup and
     * the pod 12 (250m + 50m → 307 shares), no pod quota (log-shipper has no limit), web cpu.max 50000 100000 with
     * weight 35 (256 shares, runc ≥ 1.3.2), log-shipper weight 11 (51 shares).
     */
    @Test
    void aPodBecomesTheKubeletsCgroupsAndIsThrottledAtItsLimit() {
        HttpResponse<String> r = http.post("/api/v1/simulations", SimulationExamples.KUBERNETES);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
        JsonNode request = Http.json(r).path("request");
        assertThat(cgroups(request)).containsExactly(
                "/kubepods max 100000 79", "/kubepods/burstable max 100000 12", POD + " max 100000 12",
                POD + "/web 50000 100000 35", POD + "/log-shipper max 100000 11");
        assertThat(request.path("workloads").get(0).path("name").asString()).isEqualTo("web");
        assertThat(request.path("workloads").get(0).path("cgroup").asString()).isEqualTo(POD + "/web");
        assertThat(request.path("kubernetes").path("runtime").asString()).isEqualTo("runc-1.3.2");

        String id = Http.json(r).path("id").asString();
        JsonNode done = http.awaitFinished(id);
        assertThat(done.path("status").asString()).as(done.toString()).isEqualTo("SUCCEEDED");
        JsonNode variant = done.path("result").path("variants").get(0);
        JsonNode web = cgroup(variant, POD + "/web");
        // Four threads wanting 0.8 CPU under a 0.5 CPU quota: throttled in most periods, held near the quota.
        assertThat(web.path("nrThrottled").asDouble()).isGreaterThan(web.path("nrPeriods").asDouble() / 2);
        assertThat(web.path("usageUsec").asDouble() / variant.path("simulatedUs").asDouble()).isBetween(0.45, 0.56);

        // The cAdvisor block: the container's counters under its pod labels, the pod cgroup with container="".
        JsonNode cadvisor = null;
        JsonNode podSeries = null;
        for (JsonNode c : variant.path("cadvisor")) {
            if (c.path("labels").path("id").asString().equals(POD + "/web")) {
                cadvisor = c;
            }
            if (c.path("labels").path("id").asString().equals(POD)) {
                podSeries = c;
            }
        }
        assertThat(cadvisor).as(variant.path("cadvisor").toString()).isNotNull();
        assertThat(cadvisor.path("labels").path("namespace").asString()).isEqualTo("shop");
        assertThat(cadvisor.path("labels").path("pod").asString()).isEqualTo("web");
        assertThat(cadvisor.path("labels").path("container").asString()).isEqualTo("web");
        assertThat(cadvisor.path("container_cpu_cfs_throttled_periods_total").asDouble())
                .isEqualTo(web.path("nrThrottled").asDouble());
        assertThat(cadvisor.path("container_cpu_cfs_periods_total").asDouble())
                .isEqualTo(web.path("nrPeriods").asDouble());
        assertThat(cadvisor.path("container_cpu_cfs_throttled_seconds_total").asDouble())
                .isEqualTo(web.path("throttledUsec").asDouble() / 1e6);
        assertThat(cadvisor.path("container_cpu_usage_seconds_total").asDouble())
                .isEqualTo(web.path("usageUsec").asDouble() / 1e6);
        assertThat(podSeries.path("labels").path("container").asString()).isEmpty();
        assertThat(podSeries.has("container_cpu_cfs_periods_total")).as("no quota, no CFS counters").isFalse();

        // The report names the pod's cgroups as Kubernetes does, the path beside.
        HttpResponse<String> report = http.get("/api/v1/simulations/" + id + "/report", "text/markdown");
        assertThat(report.statusCode()).isEqualTo(200);
        assertThat(report.body()).contains("- container web of shop/web (" + POD + "/web): throttled in ")
                .contains("- pod shop/web (" + POD + "): no CPU limit of its own");

        // The accepted request is itself a request: submitted again it is accepted with the same cgroups.
        HttpResponse<String> again = http.post("/api/v1/simulations", request.toString());
        assertThat(again.statusCode()).as(again.body()).isEqualTo(202);
        assertThat(cgroups(Http.json(again).path("request"))).isEqualTo(cgroups(request));

        openMetricsParseBackToTheResult(id, variant);
    }

    /**
     * The download: every series' samples ascend in time and never decrease; each last sample is the run's
     * cpu.stat; the CPUThrottlingHigh ratio (throttled periods over periods) of the samples is the result's.
     */
    private void openMetricsParseBackToTheResult(String id, JsonNode variant) {
        HttpResponse<String> m = http.get("/api/v1/simulations/" + id + "/metrics?start=1767225600");
        assertThat(m.statusCode()).as(m.body()).isEqualTo(200);
        assertThat(m.headers().firstValue("Content-Type").orElse("")).startsWith("application/openmetrics-text");
        assertThat(m.body()).endsWith("# EOF\n").contains("# TYPE container_cpu_cfs_throttled_periods counter");
        Pattern sample = Pattern.compile("([a-z_]+)\\{([^}]*)} (\\S+) (\\S+)");
        Map<String, List<double[]>> series = new LinkedHashMap<>();
        for (String line : m.body().split("\n")) {
            if (line.startsWith("#")) {
                continue;
            }
            Matcher x = sample.matcher(line);
            assertThat(x.matches()).as(line).isTrue();
            series.computeIfAbsent(x.group(1) + "{" + x.group(2) + "}", k -> new ArrayList<>())
                    .add(new double[] {Double.parseDouble(x.group(4)), Double.parseDouble(x.group(3))});
        }
        for (Map.Entry<String, List<double[]>> e : series.entrySet()) {
            List<double[]> s = e.getValue();
            assertThat(s.get(0)[0]).isEqualTo(1767225600.0);
            for (int i = 1; i < s.size(); i++) {
                assertThat(s.get(i)[0]).as(e.getKey()).isGreaterThan(s.get(i - 1)[0]);
                assertThat(s.get(i)[1]).as(e.getKey()).isGreaterThanOrEqualTo(s.get(i - 1)[1]);
            }
        }
        String labels = "{id=\"" + POD + "/web\",container=\"web\",namespace=\"shop\",pod=\"web\",variant=\"default\"}";
        JsonNode web = cgroup(variant, POD + "/web");
        double periods = last(series, "container_cpu_cfs_periods_total" + labels);
        double throttled = last(series, "container_cpu_cfs_throttled_periods_total" + labels);
        assertThat(periods).isEqualTo(web.path("nrPeriods").asDouble());
        assertThat(throttled).isEqualTo(web.path("nrThrottled").asDouble());
        assertThat(last(series, "container_cpu_cfs_throttled_seconds_total" + labels))
                .isEqualTo(web.path("throttledUsec").asDouble() / 1e6);
        assertThat(last(series, "container_cpu_usage_seconds_total{cpu=\"total\"," + labels.substring(1)))
                .isEqualTo(web.path("usageUsec").asDouble() / 1e6);
        assertThat(series.keySet()).noneMatch(k -> k.startsWith("container_cpu_cfs_periods_total{id=\"" + POD + "\""));
        assertThat(throttled / periods).isGreaterThan(0.25); // CPUThrottlingHigh's threshold
    }

    private static double last(Map<String, List<double[]>> series, String key) {
        assertThat(series).as(series.keySet().toString()).containsKey(key);
        List<double[]> s = series.get(key);
        return s.get(s.size() - 1)[1];
    }

    @Test
    void theSamePodAsYamlGivesTheSameCgroups() {
        HttpResponse<String> json = http.post("/api/v1/simulations", SimulationExamples.KUBERNETES);
        HttpResponse<String> yaml = postYaml(SimulationExamples.KUBERNETES_YAML);
        assertThat(yaml.statusCode()).as(yaml.body()).isEqualTo(202);
        assertThat(cgroups(Http.json(yaml).path("request"))).isEqualTo(cgroups(Http.json(json).path("request")));
        JsonNode done = http.awaitFinished(Http.json(yaml).path("id").asString());
        assertThat(done.path("status").asString()).isEqualTo("SUCCEEDED");

        HttpResponse<String> malformed = postYaml("kubernetes: [unclosed\n");
        assertThat(malformed.statusCode()).isEqualTo(400);
        assertThat(malformed.body()).contains("malformed YAML");
        HttpResponse<String> duplicate = postYaml("durationMs: 1\ndurationMs: 2\n");
        assertThat(duplicate.statusCode()).as(duplicate.body()).isEqualTo(400);
    }

    @Test
    void badPodInputIsA400NamingTheField() {
        String web = "\"web\": { \"type\": \"cpu-bound\" }";
        String logs = "\"log-shipper\": { \"type\": \"cpu-bound\" }";
        bad(SimulationExamples.KUBERNETES.replace("\"log-shipper\": { \"type\": \"periodic\"",
                "\"nope\": {}, \"log-shipper\": { \"type\": \"periodic\""), "kubernetes.workloads.nope",
                "no container 'nope'");
        bad(pod("[]", web), "kubernetes.pod.spec.containers", "at least one container");
        bad(pod("[ { \"name\": \"web\" }, { \"name\": \"log-shipper\" } ]", web), "kubernetes.workloads.log-shipper",
                "required");
        bad(pod("[ { \"name\": \"web\", \"resources\": { \"limits\": { \"cpu\": \"half\" } } } ]", web),
                "kubernetes.pod.spec.containers[0].resources.limits.cpu", "not a quantity");
        bad(pod("[ { \"name\": \"web\", \"resources\": { \"requests\": { \"cpu\": \"1..5\" } } } ]", web),
                "kubernetes.pod.spec.containers[0].resources.requests.cpu", "not a quantity");
        bad(pod("[ { \"name\": \"web\" } ]", "\"web\": { \"type\": \"periodic\" }"), "kubernetes.workloads.web.runUs",
                "required");
        bad(pod("[ { \"name\": \"web\" } ]", "\"web\": { \"type\": \"cpu-bound\", \"cgroup\": \"/x\" }"),
                "kubernetes.workloads.web.cgroup", "leave it out");
        bad(SimulationExamples.KUBERNETES.replace("\"topology\": { \"preset\": \"validation-2c\" },",
                "\"topology\": { \"preset\": \"validation-2c\" }, \"runtime\": \"docker\","), "kubernetes.runtime",
                "runc-X.Y.Z");
        bad(SimulationExamples.KUBERNETES.replace("\"topology\": { \"preset\": \"validation-2c\" },",
                "\"topology\": { \"preset\": \"validation-2c\" }, \"cpuCFSQuotaPeriod\": \"2s\","),
                "kubernetes.cpuCFSQuotaPeriod", "1ms to 1s");
        bad(SimulationExamples.KUBERNETES.replace("\"durationMs\": 2000", "\"durationMs\": 2000, \"cgroups\": "
                + "[ { \"path\": \"/x\" } ]"), "cgroups", "leave it out");
        bad(SimulationExamples.KUBERNETES.replace("\"topology\": { \"preset\": \"validation-2c\" },", ""),
                "kubernetes.topology", "required");
        bad(pod("[ { \"name\": \"web\" } ]", web + ", " + logs), "kubernetes.workloads.log-shipper", "no container");
    }

    private static String pod(String containers, String workloads) {
        return """
                { "kubernetes": { "pod": { "kind": "Pod", "metadata": { "name": "p" },
                                           "spec": { "containers": %s } },
                                  "topology": { "preset": "validation-2c" }, "workloads": { %s } },
                  "durationMs": 100 }""".formatted(containers, workloads);
    }

    private void bad(String body, String field, String message) {
        HttpResponse<String> r = http.post("/api/v1/simulations", body);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
        assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("application/problem+json");
        boolean named = false;
        for (JsonNode v : Http.json(r).path("errors")) {
            named |= v.path("field").asString().equals(field) && v.path("message").asString().contains(message);
        }
        assertThat(named).as(field + " in " + r.body()).isTrue();
    }

    private static List<String> cgroups(JsonNode request) {
        List<String> out = new ArrayList<>();
        for (JsonNode c : request.path("cgroups")) {
            out.add(c.path("path").asString() + " " + c.path("cpuMax").asString() + " " + c.path("cpuWeight").asInt());
        }
        return out;
    }

    private static JsonNode cgroup(JsonNode variant, String path) {
        for (JsonNode c : variant.path("cgroups")) {
            if (c.path("path").asString().equals(path)) {
                return c.path("cpuStat");
            }
        }
        throw new AssertionError("no cgroup " + path + " in " + variant.path("cgroups"));
    }
}
