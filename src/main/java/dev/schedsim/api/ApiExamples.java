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
     * An rt-app document written from rt-app's event list (doc/tutorial.txt): a frame-paced decoder in a
     * taskgroup of its own, two audio threads on an absolute timer pinned to CPU 0, a build in a limited
     * taskgroup; global.duration gives the simulated time.
     */
    static final String RT_APP = """
            {
              "name": "rt-app-media",
              "topology": { "preset": "validation-2c" },
              "cgroups": [ { "path": "/batch", "cpuMax": "50000 100000" } ],
              "workloads": [
                { "type": "rt-app", "rtApp": {
                    "global": { "duration": 2, "calibration": "CPU0", "default_policy": "SCHED_OTHER" },
                    "tasks": {
                      "video": {
                        "priority": -5, "taskgroup": "/media",
                        "phases": {
                          "decode": { "loop": 30, "run": 4000, "timer": { "ref": "unique", "period": 16667 } },
                          "pause": { "sleep": 50000 }
                        }
                      },
                      "audio": {
                        "instance": 2, "delay": 1000, "cpus": [0],
                        "run": 500, "timer": { "ref": "unique_a", "period": 5000, "mode": "absolute" }
                      },
                      "build": { "instance": 2, "taskgroup": "/batch", "runtime": 30000, "sleep": 5000 }
                    } } }
              ],
              "seed": 42,
              "trace": true
            }""";

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
