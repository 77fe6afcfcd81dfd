#!/usr/bin/env python3
"""Runs one case of scripts/measure-latency.py on the real kernel under its tracefs trace and prints how the
case's threads meet each other: what the latency suite's summaries do not show when a case deviates.

  - preemptions of a harness thread by another (sched_switch with prev_state R between harness threads), how
    long after the preemptor's sched_waking they came, and the victim's remainder (its next run slice);
  - wakeups whose CPU (sched_waking's target_cpu: the task's previous CPU) was running another harness thread,
    and how far into that thread's slice they came (250 us bins);
  - migrations of harness threads by context (trace flags: h hardirq = a timer wakeup's select_task_rq(),
    s softirq = periodic/idle balance, neither = newidle balance or a wakeup from a task).

Needs root and a quiet machine, like measure-latency.py. The trace is kept in /tmp/schedsim-trace-CASE.txt.

usage: scripts/trace-case.py CASE [DURATION_MS (3000)]
"""
import collections
import importlib.util
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("measure_latency", os.path.join(HERE, "measure-latency.py"))
ml = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ml)

HARNESS = "schedsim-lat"
LINE = re.compile(r"\[(\d+)\]\s+(\S+)\s+(\d+\.\d+): (sched_\w+): (.*)")
SWITCH = re.compile(r"prev_comm=(\S+) prev_pid=(\d+).*prev_state=(\S+) ==> next_comm=(\S+) next_pid=(\d+)")


def capture(name, duration_ms):
    os.environ["ML_DURATION_MS"] = str(duration_ms)
    ml.DURATION_MS = duration_ms
    subprocess.run(["gcc", "-O2", "-pthread", "-o", ml.BIN, ml.SRC], check=True)
    ml.setup_tracing()
    autogroup = open("/proc/sys/kernel/sched_autogroup_enabled").read().strip()
    ml.write("/proc/sys/kernel/sched_autogroup_enabled", 0)
    try:
        cgroups, groups = ml.CASES[name]
        result = ml.run_case(name, cgroups, groups)
    finally:
        ml.write("/proc/sys/kernel/sched_autogroup_enabled", autogroup)
    out = "/tmp/schedsim-trace-%s.txt" % name
    subprocess.run(["cp", os.path.join(os.environ.get("TMPDIR", "/tmp"), "schedsim-latency-trace.txt"), out],
                   check=True)
    return result, out


def quantiles(v, qs=(0.1, 0.25, 0.5, 0.75, 0.9)):
    v = sorted(v)
    return [round(v[min(len(v) - 1, int(len(v) * q))]) for q in qs] if v else []


def analyse(path):
    events = []
    for line in open(path):
        m = LINE.search(line)
        if m:
            events.append((int(m.group(1)), m.group(2), float(m.group(3)), m.group(4), m.group(5)))
    running = {}  # cpu -> (pid, slice start) of a harness thread, else None
    last_wake = {}
    victim = {}  # preempted harness pid -> True until it runs again
    remainder_slice = {}  # cpu -> start of a victim's next slice
    preempt_after_wake, remainders, into_slice = [], [], []
    wakes = onto_sibling = 0
    migrations = collections.Counter()
    for cpu, flags, t, kind, args in events:
        if kind == "sched_switch":
            pc, pp, ps, nc, np = SWITCH.search(args).groups()
            if cpu in remainder_slice:
                remainders.append((t - remainder_slice.pop(cpu)) * 1e6)
            if pc.startswith(HARNESS) and ps.startswith("R") and nc.startswith(HARNESS):
                victim[pp] = True
                if np in last_wake:
                    preempt_after_wake.append((t - last_wake[np]) * 1e6)
            if nc.startswith(HARNESS):
                running[cpu] = (np, t)
                if victim.pop(np, False):
                    remainder_slice[cpu] = t
            else:
                running[cpu] = None
        elif kind == "sched_waking" and "comm=" + HARNESS in args:
            pid = re.search(r"pid=(\d+)", args).group(1)
            target = int(re.search(r"target_cpu=(\d+)", args).group(1))
            last_wake[pid] = t
            wakes += 1
            r = running.get(target)
            if r and r[0] != pid:
                onto_sibling += 1
                into_slice.append((t - r[1]) * 1e6)
        elif kind == "sched_migrate_task" and "comm=" + HARNESS in args:
            ctx = "hardirq" if "h" in flags[1:4] else "softirq" if "s" in flags[1:4] else "task"
            migrations[ctx] += 1
    bins = collections.Counter(min(int(e // 250), 9) for e in into_slice)
    print("preemptions of a harness thread by another:", len(remainders) or len(preempt_after_wake))
    print("  after the preemptor's wakeup, us (p10 p25 p50 p75 p90):", quantiles(preempt_after_wake))
    print("  the victim's remainder, us (p10 p25 p50 p75 p90):", quantiles(remainders),
          "; under 50 us:", sum(1 for r in remainders if r < 50))
    print("wakeups:", wakes, "; onto a CPU running another harness thread:", onto_sibling)
    print("  how far into that thread's slice, 250 us bins (the last: 2.25 ms and more):",
          [bins[i] for i in range(10)])
    print("migrations of harness threads by context:", dict(migrations))


def main():
    if len(sys.argv) < 2 or sys.argv[1] not in ml.CASES:
        sys.exit("usage: trace-case.py CASE [DURATION_MS]; cases: " + ", ".join(ml.CASES))
    result, path = capture(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 3000)
    print("return latency of group 0:", result["groups"][0]["returnLatencyUs"])
    analyse(path)


if __name__ == "__main__":
    main()
