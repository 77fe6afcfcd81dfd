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

And, for every wakeup of a harness thread, what it met on the CPU it was finally placed on (sched_waking, then
its sched_migrate_task if select_task_rq() moved it): an idle CPU, or a running harness thread with k others
waiting, and what came of it (the running thread was preempted, by the woken one or another, or ran on to its
sleep); and what a CPU switched to when a harness thread went to sleep (idle, another harness thread, another
task). TC_BY_SLEEP=1 splits the wakeups by how many harness threads were runnable on the woken one's CPU when it
last went to sleep, TC_BY_START=1 by how that last run began. The same analysis reads SchedSim's own ftrace export (GET /api/v1/simulations/{id}/trace?format=ftrace,
or FtraceWriter), so a case's kernel and model traces can be set side by side.

usage: scripts/trace-case.py CASE [DURATION_MS (3000)]
       scripts/trace-case.py --analyse TRACE_FILE [COMM_PREFIX (schedsim-lat)]
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


def analyse(path, harness=HARNESS):
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
            if pc.startswith(harness) and ps.startswith("R") and nc.startswith(harness):
                victim[pp] = True
                if np in last_wake:
                    preempt_after_wake.append((t - last_wake[np]) * 1e6)
            if nc.startswith(harness):
                running[cpu] = (np, t)
                if victim.pop(np, False):
                    remainder_slice[cpu] = t
            else:
                running[cpu] = None
        elif kind == "sched_waking" and "comm=" + harness in args:
            pid = re.search(r"pid=(\d+)", args).group(1)
            target = int(re.search(r"target_cpu=(\d+)", args).group(1))
            last_wake[pid] = t
            wakes += 1
            r = running.get(target)
            if r and r[0] != pid:
                onto_sibling += 1
                into_slice.append((t - r[1]) * 1e6)
        elif kind == "sched_migrate_task" and "comm=" + harness in args:
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
    outcomes(events, harness)


def outcomes(events, harness):
    """What each wakeup of a harness thread met on its final CPU, and what came of it (see the module's doc)."""
    curr = {}  # cpu -> pid running (None: idle or not a harness thread)
    waiting = collections.defaultdict(set)  # cpu -> harness pids runnable, not running
    pending = {}  # pid -> [time, cpu] of a waking not yet settled (a migrate may follow)
    watch = collections.defaultdict(list)  # cpu -> [(class, woken pid)] waiting for the cpu's next switch
    table = collections.defaultdict(collections.Counter)
    began = {}  # pid -> how its current run began
    last_began = {}  # pid -> how the run that ended in its last sleep began
    victims = set()
    slept_with = {}  # pid -> how many harness threads were runnable on its CPU when it last went to sleep
    after_sleep = collections.Counter()  # what a CPU switched to when a harness thread went to sleep

    def settle():
        for pid, (t, cpu) in pending.items():
            for w in waiting.values():
                w.discard(pid)  # (a switch in this guest does not trace may have run it)
            r = curr.get(cpu, "idle")
            if r == "idle" and not waiting[cpu]:
                cls = "idle"
                began[pid] = "from idle"
                curr[cpu] = pid  # it runs now (the guest traces no switch when CPU 1 leaves idle)
            elif r in ("idle", "other"):
                cls = "other task running"
                waiting[cpu].add(pid)
            else:
                k = len(waiting[cpu])
                cls = "busy, %s waiting" % (k if k < 2 else "2+")
                if os.environ.get("TC_BY_SLEEP"):
                    cls += ", slept with %s" % slept_with.get(pid, "?")
                if os.environ.get("TC_BY_START"):
                    cls += ", its run began %s" % last_began.get(pid, "?")
                watch[cpu].append((cls, pid, r))
                waiting[cpu].add(pid)
            table[cls]["wakeups"] += 1
        pending.clear()

    for cpu, flags, t, kind, args in events:
        if kind == "sched_migrate_task":
            if "comm=" + harness not in args:
                continue
            pid = re.search(r" pid=(\d+)", args).group(1)
            src = int(re.search(r"orig_cpu=(\d+)", args).group(1))
            dst = int(re.search(r"dest_cpu=(\d+)", args).group(1))
            if pid in pending:
                pending[pid][1] = dst
                continue
            settle()
            if pid in waiting[src]:
                waiting[src].discard(pid)
                waiting[dst].add(pid)
            continue
        settle()
        if kind == "sched_waking" and "comm=" + harness in args:
            pid = re.search(r" pid=(\d+)", args).group(1)
            pending[pid] = [t, int(re.search(r"target_cpu=(\d+)", args).group(1))]
        elif kind == "sched_switch":
            pc, pp, ps, nc, np = SWITCH.search(args).groups()
            for cls, pid, r in watch.pop(cpu, []):
                if pp != r:
                    continue
                if ps.startswith("R"):
                    table[cls]["preempted by the woken" if np == pid else "preempted by another"] += 1
                else:
                    table[cls]["ran on to its sleep"] += 1
            if pc.startswith(harness) and not ps.startswith("R"):
                after_sleep["idle" if np == "0" else "harness" if nc.startswith(harness) else "other"] += 1
                k = len(waiting[cpu] - {pp})
                slept_with[pp] = k if k < 2 else "2+"
                last_began[pp] = began.get(pp, "?")
            if pc.startswith(harness) and ps.startswith("R"):
                victims.add(pp)
            if nc.startswith(harness):
                if np in victims:
                    victims.discard(np)
                    began[np] = "resumed"
                elif ps.startswith("R") and pc.startswith(harness):
                    began[np] = "preempting"
                elif pc.startswith(harness):
                    began[np] = "after a sleep"
                elif pp == "0":
                    began[np] = "from idle"
                else:
                    began[np] = "after other"
            for w in waiting.values():
                w.discard(pp)
                w.discard(np)
            if pc.startswith(harness) and ps.startswith("R"):
                waiting[cpu].add(pp)
            curr[cpu] = np if nc.startswith(harness) else "idle" if np == "0" else "other"
    n = sum(after_sleep.values()) or 1
    print("a harness thread's sleep switched its CPU to:",
          {k: "%d (%.1f%%)" % (v, 100.0 * v / n) for k, v in after_sleep.items()})
    print("wakeups of harness threads by what they met on their final CPU:")
    for cls in sorted(table):
        c = table[cls]
        print("  %-16s %6d" % (cls, c["wakeups"]), {k: v for k, v in c.items() if k != "wakeups"})


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "--analyse":
        analyse(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else HARNESS)
        return
    if len(sys.argv) < 2 or sys.argv[1] not in ml.CASES:
        sys.exit("usage: trace-case.py CASE [DURATION_MS]; cases: " + ", ".join(ml.CASES))
    result, path = capture(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 3000)
    print("return latency of group 0:", result["groups"][0]["returnLatencyUs"])
    analyse(path)


if __name__ == "__main__":
    main()
