package dev.schedsim.advice;

/**
 * The OpenAPI examples of {@code POST /api/v1/advice}; each is accepted as shipped (checked by the tests).
 */
public final class AdviceExamples {
    private AdviceExamples() {
    }

    /**
     * The advisor's example: a service of four threads (2 ms of work every 10 ms: 0.8 CPU of demand) limited to
     * half a CPU; the smallest quota on a 100 ms period that keeps it throttled in at most 5 % of its periods.
     */
    public static final String ADVICE = """
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

    /**
     * The advisor scenario advice-burstable-pod (the same request, checked by AdviceScenarioTests): a Burstable
     * pod's web container, requests 250m and limited to 300m, serving rounds of five 8 ms requests at once five
     * times a second (0.2 CPU on average); the limits.cpu that keeps it throttled in at most 5 % of its 100 ms
     * periods with a request latency p99 of at most 2 ms.
     */
    public static final String ADVICE_BURSTABLE_POD = """
            {
              "name": "advice-burstable-pod",
              "kubernetes": {
                "pod": {
                  "apiVersion": "v1", "kind": "Pod",
                  "metadata": { "name": "checkout", "namespace": "shop" },
                  "spec": {
                    "containers": [
                      { "name": "web", "image": "checkout:2.4",
                        "resources": { "requests": { "cpu": "250m" }, "limits": { "cpu": "300m" } } },
                      { "name": "log-shipper", "image": "fluent-bit:3.1",
                        "resources": { "requests": { "cpu": "50m" } } }
                    ]
                  }
                },
                "topology": { "preset": "desktop-8c-smt2" },
                "workloads": {
                  "web": { "type": "schbench", "messageThreads": 1, "workersPerMessageThread": 8,
                           "requestUs": 8000, "rps": 25 },
                  "log-shipper": { "type": "periodic", "threads": 1, "runUs": 500, "sleepUs": 20000 }
                },
                "container": "web"
              },
              "durationMs": 10000,
              "seed": 42,
              "objective": { "maxThrottledPeriodsPct": 5, "maxP99RequestLatencyUs": 2000 },
              "search": { "quotaUs": { "min": 20000, "max": 200000 }, "periodsUs": [100000] },
              "repetitions": 2
            }""";

    /**
     * The advisor scenario advice-latency-burst (the same request, checked by AdviceScenarioTests): a service on
     * 4 CPUs limited to 300m whose rounds of four 5 ms requests come twelve times a second, so a 100 ms period
     * holds one round, every fifth two (0.24 CPU on average, 40 ms of CPU in the busy periods); the cpu.max and
     * cpu.max.burst that keep its request latency p99 at most 5 ms, bursts of 0, 10 and 20 ms searched.
     */
    public static final String ADVICE_LATENCY_BURST = """
            {
              "name": "advice-latency-burst",
              "request": {
                "topology": { "sockets": 1, "numaNodesPerSocket": 1, "llcsPerNumaNode": 1, "coresPerLlc": 4,
                              "threadsPerCore": 1 },
                "cgroups": [ { "path": "/api", "cpuMax": "30000 100000" } ],
                "workloads": [
                  { "name": "api", "cgroup": "/api", "type": "schbench", "messageThreads": 1,
                    "workersPerMessageThread": 6, "requestUs": 5000, "rps": 48 }
                ],
                "durationMs": 10000,
                "seed": 42
              },
              "cgroup": "/api",
              "workload": "api",
              "objective": { "maxP99RequestLatencyUs": 5000 },
              "search": { "quotaUs": { "min": 20000, "max": 100000 }, "periodsUs": [100000],
                          "burstsUs": [0, 10000, 20000] },
              "repetitions": 2
            }""";

    /**
     * An advice from what cpu.stat showed (the counters of scripts/advice-observed-kernel.sh's first window on the
     * validation machine: three threads of 2 ms work and 8 ms sleep at 60 ms per 100 ms): the smallest limit that
     * keeps every workload of the periodic family reproducing them throttled in at most 10 % of the periods.
     */
    public static final String ADVICE_OBSERVED = """
            {
              "name": "from-cpu-stat",
              "observed": [
                { "cpuMax": "60000 100000", "windowMs": 5026, "nrPeriods": 50, "nrThrottled": 42,
                  "throttledUsec": 67557, "usageUsec": 3004795 }
              ],
              "threads": 3,
              "topology": { "preset": "validation-2c" },
              "objective": { "preset": "throttled-10pct" }
            }""";
}
