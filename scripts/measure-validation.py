#!/usr/bin/env python3
"""Measures SchedSim's own real-kernel validation cases with ../shared/validation/realkernel/measure.sh.

Needs root and the cgroup v1 cpu controller at /sys/fs/cgroup/cpu (present on the project's machines).
Run it on an otherwise idle machine: other load changes what the cgroup gets. Writes
src/test/resources/validation/cases-schedsim.json in the format of the shared cases.json, plus the parent
group's statistics ("parentRuns") for cases with a limited parent.

usage: scripts/measure-validation.py [RUNS]   (default 3 runs per case)
"""
import json
import os
import platform
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MEASURE = os.path.join(ROOT, "..", "shared", "validation", "realkernel", "measure.sh")
OUT = os.path.join(ROOT, "src", "test", "resources", "validation", "cases-schedsim.json")

# name, quotaUs, periodUs, burstUs, threads, runUs, sleepUs, wallMs, parentQuotaUs
CASES = [
    # several threads with short run/sleep cycles, demand above quota
    ("multi-short", 50000, 100000, 0, 4, 1000, 4000, 3000, -1),
    # a limited parent over an unlimited child (cgroup v1 refuses a child limit above the parent's)
    ("parent-binds", -1, 100000, 0, 3, 0, 0, 3000, 60000),
    # a limited parent over a tighter child with sleepers: both levels throttle
    ("parent-child", 40000, 100000, 0, 3, 3000, 2000, 3000, 60000),
    # burst with bursty load: two threads in step, 40 ms of demand every 200 ms against 30 ms + 30 ms burst
    ("burst-bursty", 30000, 100000, 30000, 2, 20000, 180000, 3000, -1),
    # burst with a load whose demand per period varies around the quota (runs of 12 ms every 75 ms)
    ("burst-steady", 20000, 100000, 20000, 1, 12000, 63000, 3000, -1),
    # a short period below the bandwidth slice
    ("short-period", 2000, 5000, 0, 1, 0, 0, 3000, -1),
    # many threads with a small quota
    ("many-small", 20000, 100000, 0, 16, 500, 4500, 3000, -1),
    # demand equal to the quota (k8s "throttled at low usage")
    ("demand-eq-quota", 40000, 100000, 0, 2, 2000, 8000, 3000, -1),
    # two always-busy threads limited to 1.2 CPUs
    ("two-120", 120000, 100000, 0, 2, 0, 0, 3000, -1),
]


def measure(case):
    name, quota, period, burst, threads, run, sleep, wall, pquota = case
    out = subprocess.run(["bash", MEASURE, name, str(quota), str(period), str(burst), str(threads), str(run),
                          str(sleep), str(wall), str(pquota)], check=True, capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    cases = []
    for case in CASES:
        name, quota, period, burst, threads, run, sleep, wall, pquota = case
        child_runs, parent_runs = [], []
        for _ in range(runs):
            m = measure(case)["measured"]
            child_runs.append({"usageUsec": m["usageUsec"], **m["child"]})
            parent_runs.append(m["parent"])
            print(name, child_runs[-1], parent_runs[-1], file=sys.stderr)
        entry = {"name": name,
                 "spec": {"quotaUs": quota, "periodUs": period, "burstUs": burst, "threads": threads,
                          "runUs": run, "sleepUs": sleep, "wallMs": wall, "parentQuotaUs": pquota},
                 "runs": child_runs}
        if pquota != -1:
            entry["parentRuns"] = parent_runs
        cases.append(entry)
    doc = {"machine": "%d vCPU, Linux %s, cgroup v1 cpu controller, bandwidth slice %s us" % (
               os.cpu_count(), platform.release(),
               open("/proc/sys/kernel/sched_cfs_bandwidth_slice_us").read().strip()),
           "howMeasured": "scripts/measure-validation.py (shared/validation/realkernel/measure.sh), %d runs per case"
                          % runs,
           "cases": cases}
    with open(OUT, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    print("wrote", OUT, file=sys.stderr)


if __name__ == "__main__":
    main()
