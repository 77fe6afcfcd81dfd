package dev.schedsim.api;

/** The OpenAPI examples; each request example is accepted as shipped (checked by the tests). */
final class ApiExamples {
    private ApiExamples() {
    }

    static final String SIMULATION = """
            {
              "name": "two-groups",
              "topology": { "preset": "validation-2c" },
              "kernel": { "profile": "6.18", "hz": 250 },
              "cgroups": [
                { "path": "/a", "cpuWeight": 200 },
                { "path": "/b", "cpuWeight": 100 }
              ],
              "workloads": [
                { "name": "stress-a", "cgroup": "/a", "type": "cpu-bound", "threads": 2 },
                { "name": "stress-b", "cgroup": "/b", "type": "cpu-bound", "threads": 2 }
              ],
              "durationMs": 2000,
              "seed": 42
            }""";

    /**
     * The advisor's example: a service of four threads (2 ms of work every 10 ms: 0.8 CPU of demand) limited to
     * half a CPU; the smallest quota on a 100 ms period that keeps it throttled in at most 5 % of its periods.
     */
    static final String ADVICE = """
            {
              "name": "web-limit",
              "request": {
                "topology": { "preset": "validation-2c" },
                "cgroups": [ { "path": "/web", "cpuMax": "50000 100000" } ],
                "workloads": [
                  { "name": "web", "cgroup": "/web", "type": "periodic", "threads": 4, "runUs": 2000,
                    "sleepUs": 8000 }
                ],
                "durationMs": 1000
              },
              "cgroup": "/web",
              "workload": "web",
              "objective": { "maxThrottledPeriodsPct": 5 },
              "search": { "quotaUs": { "min": 20000, "max": 200000 }, "periodsUs": [100000] },
              "repetitions": 2
            }""";

    static final String VARIANTS = """
            {
              "name": "quota-interleave",
              "topology": { "preset": "validation-2c" },
              "cgroups": [
                { "path": "/a", "cpuMax": "50000 100000" },
                { "path": "/b", "cpuMax": "50000 100000", "cpuMaxBurst": 0, "cpuWeight": 100 }
              ],
              "workloads": [
                { "name": "stress-a", "cgroup": "/a", "type": "cpu-bound", "threads": 2, "workUs": 200000 },
                { "name": "stress-b", "cgroup": "/b", "type": "cpu-bound", "threads": 2, "workUs": 200000 }
              ],
              "durationMs": 2000,
              "repetitions": 2,
              "variants": [
                { "label": "aligned", "kernel": { "features": { "BANDWIDTH_TIMER_INTERLEAVE": false } } },
                { "label": "interleaved", "kernel": { "features": { "BANDWIDTH_TIMER_INTERLEAVE": true } } }
              ]
            }""";

    /**
     * A Burstable pod of two containers on the 2-CPU validation machine: "web" requests 250m and is limited to
     * 500m (cpu.max 50000 100000), "log-shipper" requests 50m without a limit (so the pod cgroup has none); web's
     * four threads want 0.8 CPU and are throttled.
     */
    static final String KUBERNETES = """
            {
              "name": "pod-web",
              "kubernetes": {
                "pod": {
                  "apiVersion": "v1", "kind": "Pod",
                  "metadata": { "name": "web", "namespace": "shop" },
                  "spec": {
                    "containers": [
                      { "name": "web", "image": "nginx:1.27",
                        "resources": { "requests": { "cpu": "250m", "memory": "128Mi" },
                                       "limits": { "cpu": "500m", "memory": "256Mi" } } },
                      { "name": "log-shipper", "image": "fluent-bit:3.1",
                        "resources": { "requests": { "cpu": "50m" } } }
                    ]
                  }
                },
                "topology": { "preset": "validation-2c" },
                "workloads": {
                  "web": { "type": "periodic", "threads": 4, "runUs": 2000, "sleepUs": 8000 },
                  "log-shipper": { "type": "periodic", "threads": 1, "runUs": 500, "sleepUs": 20000 }
                }
              },
              "durationMs": 2000
            }""";

    /** {@link #KUBERNETES} as YAML, the pod as kubectl prints it. */
    static final String KUBERNETES_YAML = """
            name: pod-web-yaml
            durationMs: 2000
            kubernetes:
              topology:
                preset: validation-2c
              runtime: runc-1.3.2
              pod:
                apiVersion: v1
                kind: Pod
                metadata:
                  name: web
                  namespace: shop
                spec:
                  containers:
                  - name: web
                    image: nginx:1.27
                    resources:
                      requests: {cpu: 250m, memory: 128Mi}
                      limits: {cpu: 500m, memory: 256Mi}
                  - name: log-shipper
                    image: fluent-bit:3.1
                    resources:
                      requests: {cpu: 50m}
              workloads:
                web: {type: periodic, threads: 4, runUs: 2000, sleepUs: 8000}
                log-shipper: {type: periodic, threads: 1, runUs: 500, sleepUs: 20000}
            """;

    static final String TOPOLOGY = """
            {
              "name": "smt4-box",
              "description": "1 socket, 4 cores, SMT4 with a flatter SMT curve",
              "topology": {
                "sockets": 1, "numaNodesPerSocket": 1, "llcsPerNumaNode": 1, "coresPerLlc": 4, "threadsPerCore": 4,
                "hardware": { "smtThroughput": [1.0, 1.4, 1.7, 1.9] }
              }
            }""";

    static final String PROBLEM_400 = """
            {
              "type": "https://schedsim.dev/problems/validation",
              "title": "Invalid request",
              "status": 400,
              "detail": "2 fields are invalid; see errors",
              "instance": "/api/v1/simulations",
              "errors": [
                { "field": "cgroups[0].cpuMax", "message": "quota must be >= 1000 µs (1 ms)" },
                { "field": "workloads[0].type", "message": "unknown workload type 'cpu'; one of [cpu-bound, ...]" }
              ]
            }""";
}
