package dev.schedsim.simulations;

/**
 * The OpenAPI examples of {@code POST /api/v1/simulations} and of its error answer; each request example
 * is accepted as shipped and runs twice in a row (checked by the tests and scripts/swagger-examples-check.py).
 */
public final class SimulationExamples {
    private SimulationExamples() {
    }

    public static final String SIMULATION = """
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

    public static final String VARIANTS = """
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
     * The latency suites' four-2000 case (four threads of 2 ms work and 3 ms sleep on the 2-CPU validation machine)
     * after one warm-up run and half a second of the machine alone, as scripts/measure-latency.py runs its cases
     * back to back: the sched domains' newidle state (NI_RANDOM's ratio) is the one the run before left.
     */
    public static final String WARMUP = """
            {
              "name": "warm-machine",
              "topology": { "preset": "validation-2c" },
              "kernel": { "profile": "6.18" },
              "workloads": [
                { "name": "four-2000", "type": "periodic", "threads": 4, "runUs": 2000, "sleepUs": 3000 }
              ],
              "durationMs": 2000,
              "warmup": { "runs": 1, "gapMs": 500 }
            }""";

    /**
     * A Burstable pod of two containers on the 2-CPU validation machine: "web" requests 250m and is limited to
     * 500m (cpu.max 50000 100000), "log-shipper" requests 50m without a limit (so the pod cgroup has none); web's
     * four threads want 0.8 CPU and are throttled.
     */
    public static final String KUBERNETES = """
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
    public static final String KUBERNETES_YAML = """
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

    /**
     * An rt-app document written from rt-app's event list (doc/tutorial.txt): a frame-paced decoder in a
     * taskgroup of its own, two audio threads on an absolute timer pinned to CPU 0, a build in a limited
     * taskgroup; global.duration gives the simulated time.
     */
    public static final String RT_APP = """
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

    /**
     * An ftrace import: the first events of src/test/resources/ftrace/periodic-and-spin.txt (this machine's
     * kernel, 6.18), the periodic thread selected by its comm and put in a limited cgroup.
     */
    public static final String FTRACE = """
            {
              "name": "ftrace-replay",
              "topology": { "preset": "validation-2c" },
              "cgroups": [ { "path": "/rec", "cpuMax": "50000 100000" } ],
              "workloads": [
                { "type": "ftrace", "select": ["ss-periodic"], "cgroupMap": { "ss-*": "/rec" },
                  "ftrace": "# tracer: nop\\n#\\n# entries-in-buffer/entries-written: 566/566   #P:2\\n#\\n#                                _-----=> irqs-off/BH-disabled\\n#                               / _----=> need-resched\\n#                              | / _---=> hardirq/softirq\\n#                              || / _--=> preempt-depth\\n#                              ||| / _-=> migrate-disable\\n#                              |||| /     delay\\n#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\\n#              | |         |   |||||     |         |\\n     ss-periodic-12796   [000] d..2.  1865.082096: sched_switch: prev_comm=ss-periodic prev_pid=12796 prev_prio=120 prev_state=R ==> next_comm=rcu_preempt next_pid=15 next_prio=120\\n     rcu_preempt-15      [000] d..2.  1865.082102: sched_switch: prev_comm=rcu_preempt prev_pid=15 prev_prio=120 prev_state=I ==> next_comm=ss-periodic next_pid=12796 next_prio=120\\n     ss-periodic-12796   [000] d..2.  1865.082903: sched_switch: prev_comm=ss-periodic prev_pid=12796 prev_prio=120 prev_state=S ==> next_comm=fork-1-event-th next_pid=12559 next_prio=120\\n            bash-4308    [000] .....  1865.083401: sched_process_fork: comm=bash pid=4308 child_comm=bash child_pid=12799\\n            bash-4308    [000] .....  1865.083700: sched_process_fork: comm=bash pid=4308 child_comm=bash child_pid=12800\\n            bash-12799   [000] .....  1865.084055: sched_process_exit: comm=bash pid=12799 prio=120 group_dead=true\\n             cat-12800   [000] .....  1865.085761: sched_process_exit: comm=cat pid=12800 prio=120 group_dead=true\\n C2 CompilerThre-12733   [000] d.h2.  1865.085968: sched_waking: comm=ss-periodic pid=12796 prio=120 target_cpu=000\\n C2 CompilerThre-12733   [000] d.h3.  1865.085971: sched_wakeup: comm=ss-periodic pid=12796 prio=120 target_cpu=000\\n C1 CompilerThre-12567   [001] d.h2.  1865.089926: sched_waking: comm=ss-spin pid=12797 prio=120 target_cpu=001\\n C1 CompilerThre-12567   [001] dNh3.  1865.089930: sched_wakeup: comm=ss-spin pid=12797 prio=120 target_cpu=001\\n C1 CompilerThre-12567   [001] d..2.  1865.089940: sched_switch: prev_comm=C1 CompilerThre prev_pid=12567 prev_prio=120 prev_state=R ==> next_comm=ss-spin next_pid=12797 next_prio=120\\n         ss-spin-12797   [001] d..2.  1865.094061: sched_switch: prev_comm=ss-spin prev_pid=12797 prev_prio=120 prev_state=R ==> next_comm=C1 CompilerThre next_pid=12567 next_prio=120\\n     kworker/0:2-544     [000] d..2.  1865.094102: sched_switch: prev_comm=kworker/0:2 prev_pid=544 prev_prio=120 prev_state=I ==> next_comm=ss-periodic next_pid=12796 next_prio=120\\n     ss-periodic-12796   [000] d..2.  1865.094113: sched_switch: prev_comm=ss-periodic prev_pid=12796 prev_prio=120 prev_state=S ==> next_comm=VM Periodic Tas next_pid=12738 next_prio=120\\n            bash-4308    [000] .....  1865.094346: sched_process_fork: comm=bash pid=4308 child_comm=bash child_pid=12801\\n C1 CompilerThre-12734   [000] d.h2.  1865.099191: sched_waking: comm=ss-periodic pid=12796 prio=120 target_cpu=000\\n C1 CompilerThre-12734   [000] dNh3.  1865.099196: sched_wakeup: comm=ss-periodic pid=12796 prio=120 target_cpu=000\\n C1 CompilerThre-12734   [000] d..2.  1865.099205: sched_switch: prev_comm=C1 CompilerThre prev_pid=12734 prev_prio=120 prev_state=R ==> next_comm=ss-periodic next_pid=12796 next_prio=120\\n     ss-periodic-12796   [000] d..2.  1865.099216: sched_switch: prev_comm=ss-periodic prev_pid=12796 prev_prio=120 prev_state=S ==> next_comm=C1 CompilerThre next_pid=12734 next_prio=120\\n" }
              ],
              "durationMs": 200
            }""";

    public static final String PROBLEM_400 = """
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
