#!/usr/bin/env python3
"""Measures SchedSim's real-kernel latency and placement cases on this machine.

Each case runs src/test/c/latbench (built here with gcc) under a tracefs trace of sched_waking, sched_switch
and sched_migrate_task with trace_clock mono, so that trace times and the harness's CLOCK_MONOTONIC stamps are
one clock. Per case and run it keeps, for every group of the case's threads:
  - wakeup latency percentiles two ways: sched_waking to the sched_switch that runs the task ("switch"), and
    sched_waking to the return of the sleep or read in the program ("return"; this guest emits no sched_switch
    when a CPU leaves idle for some wakeups, so "switch" misses those);
  - per thread its CPU time, context switches and migrations (/proc/self/task/TID/sched), and its units (cycles,
    transactions, messages);
and, for the whole run, the machine's own activity: wakeups and run time of every task that is not the
harness's (kernel threads, daemons), per CPU and second — what SchedSim's noise model stands for.

Needs root, cgroup v1 cpu at /sys/fs/cgroup/cpu and an otherwise idle machine (no build, no JVM).
kernel.sched_autogroup_enabled is set to 0 while measuring and restored.

usage: scripts/measure-latency.py [RUNS (3)] [CASE ... | machine]
writes src/test/resources/validation/latency-cases.json, or the file ML_OUT names (all cases and the machine's own
noise; with CASE names, only those cases are measured again and the rest kept from the file; with "machine", only
the machine's noise; ML_MACHINE_PARTS=crossWake with "machine" measures only that part again in each of the
file's machine runs; ML_MACHINE_PARTS=hostStalls likewise for the host's stalls, sharedSleepers for periodic
threads sharing a CPU)
"""
import json
import os
import platform
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SRC = os.path.join(ROOT, "src", "test", "c", "latbench.c")
GAPS_SRC = os.path.join(ROOT, "src", "test", "c", "irqgaps.c")
GAPS_BIN = os.path.join(os.environ.get("TMPDIR", "/tmp"), "schedsim-irqgaps")
RUNGAPS_SRC = os.path.join(ROOT, "src", "test", "c", "rungaps.c")
RUNGAPS_BIN = os.path.join(os.environ.get("TMPDIR", "/tmp"), "schedsim-rungaps")
# (run, sleep) in µs: the same idle share at three lengths, and three other shares (docs/latency-validation.md,
# "A vCPU that halted loses more")
RUN_GAP_SHAPES = ((1000, 4000), (200, 800), (5000, 20000), (1000, 1000), (5000, 4000), (1000, 20000))
OUT = os.environ.get("ML_OUT") or os.path.join(ROOT, "src", "test", "resources", "validation", "latency-cases.json")
BIN = os.path.join(os.environ.get("TMPDIR", "/tmp"), "schedsim-latbench")
CG = "/sys/fs/cgroup/cpu"
TRACING = "/sys/kernel/tracing"
DURATION_MS = int(os.environ.get("ML_DURATION_MS", "5000"))

# name -> (cgroups, groups). A cgroup is (name, cpu.shares, quota_us, period_us) under CG/schedsim_lat/;
# a group is (kind, count, args, cpu, nice, cgroup name or None), as latbench takes them.
CASES = {
    "alone": ([], [("periodic", 1, [100, 900], None, 0, None)]),
    "busy2": ([], [("periodic", 1, [100, 900], None, 0, None), ("busy", 2, [], None, 0, None)]),
    "busy2-pinned": ([], [("periodic", 1, [100, 900], 0, 0, None), ("busy", 1, [], 0, 0, None),
                          ("busy", 1, [], 1, 0, None)]),
    "busy-nice5": ([], [("periodic", 1, [100, 900], 0, 0, None), ("busy", 1, [], 0, 5, None)]),
    "periodic-nice5": ([], [("periodic", 1, [100, 900], 0, 5, None), ("busy", 1, [], 0, 0, None)]),
    "cgroups": ([("a", 1024, -1, 100000), ("b", 1024, -1, 100000)],
                [("periodic", 1, [100, 900], None, 0, "a"), ("busy", 2, [], None, 0, "b")]),
    "four-2000": ([], [("periodic", 4, [2000, 3000], None, 0, None)]),
    "eight-short": ([], [("periodic", 8, [200, 800], None, 0, None)]),
    "pingpong1": ([], [("pingpong", 1, [20, 10], None, 0, None)]),
    "pingpong2": ([], [("pingpong", 2, [50, 20], None, 0, None)]),
    "pingpong-busy": ([], [("pingpong", 1, [20, 10], None, 0, None), ("busy", 1, [], None, 0, None)]),
    "hackbench": ([], [("hackbench", 1, [4, 2000, 5], None, 0, None)]),
    "busy3": ([], [("busy", 3, [], None, 0, None)]),
    "busy5": ([], [("busy", 5, [], None, 0, None)]),
    "throttled": ([("t", 1024, 30000, 100000)], [("periodic", 1, [1000, 1000], None, 0, "t")]),
    "throttled-busy": ([("t", 1024, 100000, 100000)],
                       [("periodic", 1, [100, 900], None, 0, "t"), ("busy", 2, [], None, 0, "t")]),
    # periodic threads at 60-90 % of both CPUs (issue 32): where the phases of their cycles meet or settle
    "four-1500": ([], [("periodic", 4, [1500, 3500], None, 0, None)]),
    "six-800": ([], [("periodic", 6, [800, 2200], None, 0, None)]),
    "five-2000": ([], [("periodic", 5, [2000, 4000], None, 0, None)]),
    "six-1500": ([], [("periodic", 6, [1500, 3500], None, 0, None)]),
}

LINE = re.compile(r"^\s*(.+)-(\d+)\s+\[(\d+)\]\s+\S+\s+(\d+\.\d+):\s+(\w+):\s+(.*)$")
FIELD = re.compile(r"(\w+)=(\S+)")


def write(path, value):
    with open(path, "w") as f:
        f.write(str(value))


def setup_tracing():
    if not os.path.exists(os.path.join(TRACING, "trace")):
        subprocess.run(["mount", "-t", "tracefs", "nodev", TRACING], check=True)
    write(os.path.join(TRACING, "tracing_on"), 0)
    write(os.path.join(TRACING, "trace_clock"), "mono")
    write(os.path.join(TRACING, "buffer_size_kb"), 65536)
    for e in ("sched_waking", "sched_switch", "sched_migrate_task"):
        write(os.path.join(TRACING, "events", "sched", e, "enable"), 1)
    # machine_noise() turns sched_wakeup on for a few runs; a run it did not finish must not leave it in the cases'
    write(os.path.join(TRACING, "events", "sched", "sched_wakeup", "enable"), 0)


def make_cgroups(cgroups):
    base = os.path.join(CG, "schedsim_lat")
    remove_cgroups()
    os.mkdir(base)
    for name, shares, quota, period in cgroups:
        d = os.path.join(base, name)
        os.mkdir(d)
        write(os.path.join(d, "cpu.shares"), shares)
        write(os.path.join(d, "cpu.cfs_period_us"), period)
        write(os.path.join(d, "cpu.cfs_quota_us"), quota)
    return base


def remove_cgroups():
    base = os.path.join(CG, "schedsim_lat")
    if os.path.isdir(base):
        for d in os.listdir(base):
            if os.path.isdir(os.path.join(base, d)):
                os.rmdir(os.path.join(base, d))
        os.rmdir(base)


def cgroup_stats(base, cgroups):
    out = {}
    for name, _, quota, _ in cgroups:
        if quota == -1:
            continue
        stat = dict(l.split() for l in open(os.path.join(base, name, "cpu.stat")))
        out[name] = {"nrPeriods": int(stat["nr_periods"]), "nrThrottled": int(stat["nr_throttled"]),
                     "throttledUsec": int(stat["throttled_time"]) // 1000}
    return out


def latbench_args(groups, base):
    args = []
    for kind, count, params, cpu, nice, cg in groups:
        a = [kind, str(count)] + [str(p) for p in params]
        if cpu is not None:
            a.append("cpu=%d" % cpu)
        if nice:
            a.append("nice=%d" % nice)
        if cg:
            a.append("cg=" + os.path.join(base, cg))
        args.append(",".join(a))
    return args


def sched_field(text, key):
    m = re.search(r"^%s\s*:\s*([\d.]+)" % re.escape(key), text, re.M)
    return float(m.group(1)) if m else None


def pct(sorted_values, p):
    """The value at percentile p, nearest rank (HdrHistogram's getValueAtPercentile on exact values)."""
    if not sorted_values:
        return None
    k = max(0, min(len(sorted_values) - 1, int(-(-p * len(sorted_values) // 100)) - 1))
    return sorted_values[k]


def summary(values):
    """Percentiles, and the share of wakeups that waited over 100 us (in per cent): where a case's wakeups split into
    immediate ones (tens of us) and ones that wait for a running thread (ms), a percentile near that share jumps
    between the two modes from run to run (four-2000's p90: 53-994 us over nine runs, 2026-12-06), and the share is
    the figure that decides it (docs/latency-validation.md, "Percentiles at a gap")."""
    v = sorted(values)
    over = 100.0 * sum(1 for x in v if x > 100) / len(v) if v else None
    return {"p50": pct(v, 50), "p90": pct(v, 90), "p99": pct(v, 99), "max": v[-1] if v else None,
            "count": len(v), "over100usPct": round(over, 3) if over is not None else None}


def parse_trace(path, ours):
    """Wakings per pid, switches-in per pid, and the run slices of every other task (pid -> [(cpu, start, end)])."""
    waking, switched, other_runs, other_wakeups = {}, {}, [], 0
    current = {}  # cpu -> (pid, since, comm)
    last_waking = {}  # pid -> time of its last sched_waking
    with open(path, errors="replace") as f:
        for line in f:
            m = LINE.match(line)
            if not m:
                continue
            cpu, t, event, rest = int(m.group(3)), float(m.group(4)), m.group(5), m.group(6)
            fields = dict(FIELD.findall(rest))
            if event == "sched_waking":
                pid = int(fields["pid"])
                if pid in ours:
                    waking.setdefault(pid, []).append(t)
                else:
                    other_wakeups += 1
                last_waking[pid] = t
            elif event == "sched_switch":
                nxt, prev = int(fields["next_pid"]), int(fields["prev_pid"])
                if nxt in ours:
                    switched.setdefault(nxt, []).append(t)
                if cpu in current and current[cpu][0] == prev:
                    pid, since, comm = current[cpu]
                    if pid != 0 and pid not in ours:
                        other_runs.append((cpu, since, t, comm))
                elif prev != 0 and prev not in ours and prev in last_waking:
                    # This guest records no sched_switch for some CPUs leaving idle: the run began unrecorded,
                    # after its waking and after this CPU's last recorded switch (so it counts the wakeup latency
                    # as run time, a few µs)
                    since = max(last_waking[prev], current[cpu][1] if cpu in current else 0)
                    other_runs.append((cpu, since, t, re.sub(r"[/:]\d+.*$", "", fields.get("prev_comm", "?"))))
                current[cpu] = (nxt, t, re.sub(r"[/:]\d+.*$", "", fields.get("next_comm", "?")))
    return waking, switched, other_runs, other_wakeups


def proc_snapshot():
    """Every thread's CPU time (ms) and context switches as the kernel counts them (/proc/PID/task/TID/sched): complete
    where the trace misses switches."""
    out = {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            tids = os.listdir("/proc/%s/task" % pid)
        except OSError:
            continue
        for tid in tids:
            try:
                text = open("/proc/%s/task/%s/sched" % (pid, tid)).read()
                comm = open("/proc/%s/task/%s/comm" % (pid, tid)).read().strip()
            except OSError:
                continue
            out[int(tid)] = (re.sub(r"[/:]\d+.*$", "", comm), sched_field(text, "se.sum_exec_runtime") or 0.0,
                             int(sched_field(text, "nr_switches") or 0), int(sched_field(text, "prio") or 120))
    return out


def proc_activity(before, after, seconds):
    """The other threads' runs (switches) and CPU time between two snapshots, per second, with the busiest."""
    by_comm = {}
    for tid, (comm, cpu, sw, prio) in after.items():
        if tid not in before:
            continue
        d_cpu, d_sw = cpu - before[tid][1], sw - before[tid][2]
        if d_sw <= 0 and d_cpu <= 0:
            continue
        n, ms, p = by_comm.get(comm, (0, 0.0, prio))
        by_comm[comm] = (n + d_sw, ms + d_cpu, min(p, prio))
    runs = sum(n for n, _, _ in by_comm.values())
    ms = sum(m for _, m, _ in by_comm.values())
    top = sorted(by_comm.items(), key=lambda kv: -kv[1][1])[:10]
    return {"seconds": round(seconds, 3), "runsPerSec": round(runs / seconds, 1),
            "cpuMsPerSec": round(ms / seconds, 3), "busyPct": round(100 * ms / 1000 / (os.cpu_count() * seconds), 3),
            "top": [{"comm": c, "prio": p, "runsPerSec": round(n / seconds, 1), "usPerRun": round(1000 * m / max(n, 1), 1)}
                    for c, (n, m, p) in top]}


def latencies(wakes, events, start, end):
    """For each waking in [start, end], the time to the first event at or after it (before the next waking), µs."""
    out, j = [], 0
    events = sorted(events)
    wakes = sorted(w for w in wakes if start <= w <= end)
    for i, w in enumerate(wakes):
        limit = wakes[i + 1] if i + 1 < len(wakes) else float("inf")
        while j < len(events) and events[j] < w:
            j += 1
        if j < len(events) and events[j] < limit:
            out.append((events[j] - w) * 1e6)
    return out


def run_case(name, cgroups, groups):
    base = make_cgroups(cgroups) if cgroups else ""
    write(os.path.join(TRACING, "trace"), "")
    snap_before, t_before = proc_snapshot(), time.monotonic()
    write(os.path.join(TRACING, "tracing_on"), 1)
    proc = subprocess.run([BIN, str(DURATION_MS)] + latbench_args(groups, base), capture_output=True, text=True,
                          check=True)
    write(os.path.join(TRACING, "tracing_on"), 0)
    background_proc = proc_activity(snap_before, proc_snapshot(), time.monotonic() - t_before)
    stats = cgroup_stats(base, cgroups) if cgroups else {}
    lines = [json.loads(l) for l in proc.stdout.splitlines() if l.startswith("{")]
    window = lines[0]
    threads = lines[1:]
    ours = {t["tid"] for t in threads}
    trace_copy = os.path.join(os.environ.get("TMPDIR", "/tmp"), "schedsim-latency-trace.txt")
    subprocess.run(["cp", os.path.join(TRACING, "trace"), trace_copy], check=True)
    waking, switched, other_runs, other_wakeups = parse_trace(trace_copy, ours)
    start, end = window["start"] / 1e9, window["end"] / 1e9
    # (skip the first 100 ms: threads start and cgroups settle)
    start += 0.1
    out_groups = []
    for g in range(len(groups)):
        members = [t for t in threads if t["group"] == g]
        switch_lat, return_lat = [], []
        for t in members:
            switch_lat += latencies(waking.get(t["tid"], []), switched.get(t["tid"], []), start, end)
            return_lat += latencies(waking.get(t["tid"], []), [s / 1e9 for s in t["stamps"]], start, end)
        per_thread = []
        for t in members:
            per_thread.append({
                "kind": t["kind"], "units": t["units"],
                "cpuMs": round(sched_field(t["sched"], "se.sum_exec_runtime") or 0, 3),
                "switches": int(sched_field(t["sched"], "nr_switches") or 0),
                "voluntary": int(sched_field(t["sched"], "nr_voluntary_switches") or 0),
                "migrations": int(sched_field(t["sched"], "se.nr_migrations") or 0)})
        # when the group's last thread finished its work (hackbench ends by itself; the others run to the end)
        completion_ms = round((max(t["done"] for t in members) - window["start"]) / 1e6, 3)
        out_groups.append({"switchLatencyUs": summary(switch_lat), "returnLatencyUs": summary(return_lat),
                           "completionMs": completion_ms, "threads": per_thread})
    seconds = end - start
    inside = [(c, a, b, comm) for c, a, b, comm in other_runs if a >= start and b <= end]
    busy = sum(b - a for _, a, b, _ in inside)
    slices = sorted((b - a) * 1e6 for _, a, b, _ in inside)
    by_comm = {}
    for _, a, b, comm in inside:
        n, us = by_comm.get(comm, (0, 0.0))
        by_comm[comm] = (n + 1, us + (b - a) * 1e6)
    top = sorted(by_comm.items(), key=lambda kv: -kv[1][1])[:8]
    background = {"wakeupsPerSec": round(other_wakeups / (window["end"] / 1e9 - window["start"] / 1e9), 1),
                  "runsPerSec": round(len(slices) / seconds, 1), "busyPct": round(100 * busy / (2 * seconds), 3),
                  "runUs": summary(slices),
                  "top": [{"comm": c, "runsPerSec": round(n / seconds, 1), "usPerSec": round(us / seconds, 1)}
                          for c, (n, us) in top]}
    if cgroups:
        remove_cgroups()
    return {"groups": out_groups, "cgroups": stats, "background": background, "backgroundProc": background_proc}


def traced_latbench(args):
    """Runs latbench with args under the trace; its threads (JSON lines), the window, and the parsed trace."""
    write(os.path.join(TRACING, "trace"), "")
    write(os.path.join(TRACING, "tracing_on"), 1)
    proc = subprocess.run([BIN] + args, capture_output=True, text=True, check=True)
    write(os.path.join(TRACING, "tracing_on"), 0)
    lines = [json.loads(l) for l in proc.stdout.splitlines() if l.startswith("{")]
    trace_copy = os.path.join(os.environ.get("TMPDIR", "/tmp"), "schedsim-latency-trace.txt")
    subprocess.run(["cp", os.path.join(TRACING, "trace"), trace_copy], check=True)
    return lines[0], lines[1:], parse_trace(trace_copy, {t["tid"] for t in lines[1:]})


# A switch-in this soon after the task's wakeup, its prev runnable, is a wakeup preemption (it comes in the
# interrupt's tail); one later is the tick's, whose resched_curr() asks no clock skip (also park-trace.py's)
PREEMPT_WITHIN_S = 200e-6


def wakeup_to_switch(tid, preempting=False):
    """The last traced run's switches of tid out of idle (or, preempting, from a running task it preempted within
    PREEMPT_WITHIN_S of its wakeup): the time from its sched_wakeup (ttwu_do_activate(), after the enqueue's update_rq_clock())
    to the switch, in µs. The kernel charges it to the woken task: wakeup_preempt() finds the current task queued (the
    idle task is, init_idle()) with need_resched set and calls rq_clock_skip_update(), so __schedule() skips its clock
    update and set_next_entity() takes the enqueue's clock as exec_start (docs/latency-validation.md, "What a woken
    task is charged before it runs")."""
    trace_copy = os.path.join(os.environ.get("TMPDIR", "/tmp"), "schedsim-latency-trace.txt")
    woke, out = None, []
    with open(trace_copy, errors="replace") as f:
        for line in f:
            m = LINE.match(line)
            if not m:
                continue
            event, t, fields = m.group(5), float(m.group(4)), dict(FIELD.findall(m.group(6)))
            if event == "sched_wakeup" and fields.get("pid") == str(tid):
                woke = t
            elif event == "sched_switch" and fields["next_pid"] == str(tid):
                if woke is not None and not preempting and fields["prev_pid"] == "0":
                    out.append((t - woke) * 1e6)
                elif woke is not None and preempting and fields["prev_pid"] != "0" \
                        and fields["prev_state"].startswith("R") and t - woke < PREEMPT_WITHIN_S:
                    out.append((t - woke) * 1e6)
                woke = None
    return out


def return_latency(window, t, waking):
    return summary(latencies(waking.get(t["tid"], []), [x / 1e9 for x in t["stamps"]], window["start"] / 1e9 + 0.1,
                             window["end"] / 1e9))


def cross_wake():
    """A request-response pair with its client pinned to CPU 0 and its server to CPU 1, with no work and with 10 µs a
    side: every wakeup crosses to the other CPU, which is idle (an IPI, the idle exit), where pipeWake's pair never
    leaves one busy CPU. Per transaction its wall time and CPU time, and the server's return latency."""
    out = []
    for work in (0, 10):
        window, threads, (waking, _, _, _) = traced_latbench(["3000", "pingpong,1,%d,%d,cpu=0,peer=1" % (work, work)])
        n = max(t["units"] for t in threads)
        cpu_us = 1000 * sum(sched_field(t["sched"], "se.sum_exec_runtime") or 0 for t in threads)
        server = [t for t in threads if t["kind"] == "pp-server"][0]
        out.append({"workUs": work, "transactionsPerSec": round(n / 3.0, 1), "wallUsPerTransaction": round(3e6 / max(n, 1), 3),
                    "cpuUsPerTransaction": round(cpu_us / max(n, 1), 3),
                    "serverReturnLatencyUs": return_latency(window, server, waking)})
        time.sleep(0.3)
    return out


def shared_sleepers():
    """Periodic threads of 200/800 us pinned to CPU 1, one, two and four of them: what a cycle costs each beyond its
    work when its CPU halts between runs (one), and when it goes straight from one thread to the next where they
    meet (two, four), as the loaded cases' threads share their CPUs; the one-sleeper parts (idleExit, busyWake) do
    not separate these (docs/latency-validation.md, "Where a cycle's overhead sits")."""
    out = []
    for n in (1, 2, 4):
        _, threads, _ = traced_latbench(["3000", "periodic,%d,200,800,cpu=1" % n])
        per = [1000 * (sched_field(t["sched"], "se.sum_exec_runtime") or 0) / max(t["units"], 1) for t in threads]
        cycles = sum(t["units"] for t in threads)
        # latbench's gaps in its runs: 2-100 us ones are interrupts (charged to the thread), so the cycle's cost beyond
        # its work splits into what came during its runs and what its sleep and wakeup took
        in_runs = sum(t.get("gapShortNs", 0) for t in threads) / 1000 / max(cycles, 1)
        out.append({"threads": n, "runUs": 200, "sleepUs": 800, "cpuUsPerCycle": round(sum(per) / len(per), 2),
                    "cycles": cycles, "inRunGapsUsPerCycle": round(in_runs, 2),
                    "outsideRunsUsPerCycle": round(sum(per) / len(per) - 200 - in_runs, 2)})
        time.sleep(0.3)
    return out


def steal_ms():
    """Per CPU, the time its host ran something else while it had work (/proc/stat's steal, USER_HZ ticks), ms."""
    out = {}
    hz = os.sysconf("SC_CLK_TCK")
    for line in open("/proc/stat"):
        f = line.split()
        if f[0].startswith("cpu") and f[0] != "cpu":
            out[int(f[0][3:])] = int(f[8]) * 1000 / hz
    return out


def interrupt_counts():
    """Per CPU, /proc/interrupts' counts by interrupt (name -> count)."""
    lines = open("/proc/interrupts").read().splitlines()
    ncpu = len(lines[0].split())
    out = {c: {} for c in range(ncpu)}
    for line in lines[1:]:
        f = line.split()
        if not f or not f[0].endswith(":"):
            continue
        name = f[0][:-1]
        for c in range(ncpu):
            if c + 1 < len(f) and f[c + 1].isdigit():
                out[c][name] = int(f[c + 1])
    return out


def host_stalls():
    """A computing thread pinned on each CPU at once for 10 s (src/test/c/irqgaps.c) under the trace: every gap of its
    own time over 5 us, split by what the trace shows in it — a switch away from the thread (another thread of the
    guest ran: "preempted") or none (an interrupt, or the host running something else in the vCPU's place) — with
    /proc/interrupts' counts and /proc/stat's steal over the same seconds; then the idle machine's steal for 10 s."""
    write(os.path.join(TRACING, "trace"), "")
    irq_before, before, t0 = interrupt_counts(), steal_ms(), time.monotonic()
    write(os.path.join(TRACING, "tracing_on"), 1)
    procs = [subprocess.Popen([GAPS_BIN, str(cpu), "10", "1000", "5000"], stdout=subprocess.PIPE, text=True)
             for cpu in range(os.cpu_count())]
    pids = [p.pid for p in procs]
    gaps = [json.loads(p.communicate()[0]) for p in procs]
    write(os.path.join(TRACING, "tracing_on"), 0)
    irq_after, after, t1 = interrupt_counts(), steal_ms(), time.monotonic()
    trace_copy = os.path.join(os.environ.get("TMPDIR", "/tmp"), "schedsim-latency-trace.txt")
    subprocess.run(["cp", os.path.join(TRACING, "trace"), trace_copy], check=True)
    away = {pid: [] for pid in pids}  # pid -> [(switched out, back in)]
    out_since = {}
    with open(trace_copy, errors="replace") as f:
        for line in f:
            m = LINE.match(line)
            if not m or m.group(5) != "sched_switch":
                continue
            t, fields = float(m.group(4)), dict(FIELD.findall(m.group(6)))
            prev, nxt = int(fields["prev_pid"]), int(fields["next_pid"])
            if prev in away:
                out_since[prev] = t
            if nxt in away and nxt in out_since:
                away[nxt].append((out_since.pop(nxt), t))
    bounds = [5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, float("inf")]
    per_cpu = []
    for g, pid in zip(gaps, pids):
        intervals = sorted(away[pid])
        classes = {"preempted": [0] * len(bounds), "notSwitched": [0] * len(bounds)}
        total = {"preempted": 0.0, "notSwitched": 0.0}
        j = 0
        for start_ns, len_ns in g.pop("long"):
            a, b = start_ns / 1e9, (start_ns + len_ns) / 1e9
            while j < len(intervals) and intervals[j][1] < a:
                j += 1
            switched = j < len(intervals) and intervals[j][0] <= b
            cls = "preempted" if switched else "notSwitched"
            us = len_ns / 1000
            classes[cls][next(k for k, lim in enumerate(bounds) if us <= lim)] += 1
            total[cls] += us
        seconds = g["seconds"]
        per_cpu.append({"cpu": g["cpu"], "seconds": seconds,
                        "interruptsPerSec": {k: round((irq_after[g["cpu"]].get(k, 0) - v) / seconds, 1)
                                             for k, v in irq_before[g["cpu"]].items()
                                             if irq_after[g["cpu"]].get(k, 0) - v > 0},
                        **{cls: {"pctOfTime": round(100 * total[cls] / 1e6 / seconds, 4),
                                 "bins": [{"upToUs": -1 if lim == float("inf") else lim, "perSec": round(n / seconds, 2)}
                                          for lim, n in zip(bounds, classes[cls])]}
                           for cls in classes}})
    time.sleep(10)
    idle_after, t2 = steal_ms(), time.monotonic()
    return {"busySeconds": round(t1 - t0, 3), "gaps": per_cpu,
            "busyStealMs": {c: round(after[c] - before[c], 1) for c in after},
            "idleSeconds": round(t2 - t1, 3), "idleStealMs": {c: round(idle_after[c] - after[c], 1) for c in after}}


def run_gaps():
    """What interrupts and the host take from a periodic thread's work runs against what they take from a busy loop
    on the same CPU in the same seconds (src/test/c/rungaps.c: the two alternate every 500 ms on CPU 1), for each
    of RUN_GAP_SHAPES: whether a vCPU that idles loses more of its runs than one that computes, and by what."""
    return [json.loads(subprocess.run([RUNGAPS_BIN, "1", "10", str(run), str(sleep), "json"], capture_output=True,
                                      text=True, check=True).stdout) for run, sleep in RUN_GAP_SHAPES]


def machine_noise():
    """The machine's own activity seen by a computing thread: the time interrupts take from it on each CPU
    (src/test/c/irqgaps.c); how late a thread alone on a CPU gets back from sleeps of several lengths (the
    idle-state exit) and what each such cycle costs it; what a timer wakeup onto a busy CPU costs the thread it
    interrupts and the one it wakes (medians of four runs); what the other threads of the idle machine do (/proc's counts, and their
    run lengths from the trace); and what a vCPU that halts loses of its runs against a busy one (runGaps)."""
    gaps = [json.loads(subprocess.run([GAPS_BIN, str(cpu), "3", "1000"], capture_output=True, text=True,
                                      check=True).stdout) for cpu in range(os.cpu_count())]
    idle = []
    # sched_wakeup for these runs and busyWake's only (wakeup_to_switch()): the cases' traces keep the events they
    # always had
    wakeup_event = os.path.join(TRACING, "events", "sched", "sched_wakeup", "enable")
    write(wakeup_event, 1)
    for sleep_us in (200, 900, 3000, 10000):
        window, threads, (waking, _, _, _) = traced_latbench(["3000", "periodic,1,50,%d,cpu=1" % sleep_us])
        t = threads[0]
        cpu_ms = sched_field(t["sched"], "se.sum_exec_runtime") or 0
        idle.append({"sleepUs": sleep_us, "runUs": 50, "returnLatencyUs": return_latency(window, t, waking),
                     "cpuUsPerCycle": round(cpu_ms * 1000 / max(t["units"], 1), 2),
                     "wakeupToSwitchUs": summary(wakeup_to_switch(t["tid"]))})
        time.sleep(0.3)
    # A busy thread on each CPU and a 50/950 µs sleeper beside one of them, whose every wakeup preempts it: what the
    # busy thread beside the sleeper loses per wakeup (CPU time minus its ms of work) beyond what the other loses in
    # the same seconds (the host's interrupts come and go, so the control runs at the same time), with the sleeper
    # on either CPU; what a cycle costs the sleeper, and its return latency when its CPU is busy (no idle exit)
    runs = []
    for sleeper_cpu in (0, 1, 0, 1):
        window, threads, (waking, _, _, _) = traced_latbench(
            ["3000", "busy,1,cpu=0", "busy,1,cpu=1", "periodic,1,50,950,cpu=%d" % sleeper_cpu])
        lost = {t["group"]: (sched_field(t["sched"], "se.sum_exec_runtime") or 0) - t["units"]
                for t in threads if t["kind"] == "busy"}
        sl = [t for t in threads if t["kind"] == "periodic"][0]
        runs.append({"sleeperCpu": sleeper_cpu, "busyLostMsWith": round(lost[sleeper_cpu], 3),
                     "busyLostMsWithout": round(lost[1 - sleeper_cpu], 3), "wakeups": sl["units"],
                     "lostUsPerWakeup": round(1000 * (lost[sleeper_cpu] - lost[1 - sleeper_cpu]) / max(sl["units"], 1), 2),
                     "sleeperCpuUsPerCycle": round(1000 * (sched_field(sl["sched"], "se.sum_exec_runtime") or 0)
                                                   / max(sl["units"], 1), 2),
                     "sleeperReturnLatencyUs": return_latency(window, sl, waking),
                     "sleeperWakeupToSwitchUs": summary(wakeup_to_switch(sl["tid"], preempting=True))})
        time.sleep(0.3)
    write(wakeup_event, 0)
    med = lambda xs: sorted(xs)[len(xs) // 2] if len(xs) % 2 else sum(sorted(xs)[len(xs) // 2 - 1:len(xs) // 2 + 1]) / 2
    busy_wake = {"seconds": 3.0, "runs": runs,
                 "lostUsPerWakeup": round(med([r["lostUsPerWakeup"] for r in runs]), 2),
                 "sleeperCpuUsPerCycle": round(med([r["sleeperCpuUsPerCycle"] for r in runs]), 2),
                 "sleeperReturnLatencyUs": {"p50": med([r["sleeperReturnLatencyUs"]["p50"] for r in runs])}}
    time.sleep(0.3)
    # A request-response pair pinned to CPU 1, doing no work or 10 µs on each side: every transaction is two sleeps
    # in read() and two wakeups by write() onto the same busy CPU (no timer, no idle state), so what its CPU time
    # has beyond the work is the wait-queue path and the context switch
    pipe = []
    for work in (0, 0, 10, 10):
        _, threads, _ = traced_latbench(["3000", "pingpong,1,%d,%d,cpu=1" % (work, work)])
        n = max(t["units"] for t in threads)
        cpu_us = 1000 * sum(sched_field(t["sched"], "se.sum_exec_runtime") or 0 for t in threads)
        pipe.append({"workUs": work, "transactionsPerSec": round(n / 3.0, 1),
                     "cpuUsPerTransaction": round(cpu_us / max(n, 1), 3),
                     "switchesPerTransaction": round(sum(int(sched_field(t["sched"], "nr_switches") or 0)
                                                         for t in threads) / max(n, 1), 3)})
        time.sleep(0.3)
    # The idle machine for 10 s: the kernel's counts of every other thread, and run lengths from the trace
    write(os.path.join(TRACING, "trace"), "")
    before, t0 = proc_snapshot(), time.monotonic()
    write(os.path.join(TRACING, "tracing_on"), 1)
    time.sleep(10)
    write(os.path.join(TRACING, "tracing_on"), 0)
    activity = proc_activity(before, proc_snapshot(), time.monotonic() - t0)
    trace_copy = os.path.join(os.environ.get("TMPDIR", "/tmp"), "schedsim-latency-trace.txt")
    subprocess.run(["cp", os.path.join(TRACING, "trace"), trace_copy], check=True)
    _, _, runs, _ = parse_trace(trace_copy, set())
    activity["traceRunUs"] = summary([(b - a) * 1e6 for _, a, b, _ in runs])
    return {"interrupts": gaps, "idleExit": idle, "busyWake": busy_wake, "pipeWake": pipe, "crossWake": cross_wake(),
            "sharedSleepers": shared_sleepers(), "idleMachine": activity, "hostStalls": host_stalls(),
            "runGaps": run_gaps()}


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    only = sys.argv[2:]
    subprocess.run(["gcc", "-O2", "-pthread", "-o", BIN, SRC], check=True)
    subprocess.run(["gcc", "-O2", "-o", GAPS_BIN, GAPS_SRC], check=True)
    subprocess.run(["gcc", "-O2", "-o", RUNGAPS_BIN, RUNGAPS_SRC], check=True)
    setup_tracing()
    autogroup = open("/proc/sys/kernel/sched_autogroup_enabled").read().strip()
    write("/proc/sys/kernel/sched_autogroup_enabled", 0)
    doc = json.load(open(OUT)) if os.path.exists(OUT) else {"cases": []}
    before = {c["name"]: c for c in doc["cases"]}
    kept = dict(before) if only else {}
    noise = doc.get("machineNoise")
    noise_runs = doc.get("machineNoiseRuns", [noise] if noise else [])
    try:
        parts = [x for x in os.environ.get("ML_MACHINE_PARTS", "").split(",") if x]
        if only == ["machine"] and parts and noise_runs:
            # measure these parts again in each of the file's machine runs, keeping the rest of them
            for run in noise_runs:
                for part in parts:
                    run[part] = {"crossWake": cross_wake, "hostStalls": host_stalls, "sharedSleepers": shared_sleepers,
                                 "runGaps": run_gaps}[part]()
                    print(part, json.dumps(run[part])[:300], file=sys.stderr)
            noise = noise_runs[0]
        elif not only or only == ["machine"]:
            # the machine's figures vary from one measurement to the next (a guest: its host is busy or not), so it
            # is measured several times; "machineNoise" is the first, for the figures' readers that take one
            noise_runs = []
            for _ in range(int(os.environ.get("ML_MACHINE_RUNS", "3"))):
                noise_runs.append(machine_noise())
                print("machine noise", json.dumps(noise_runs[-1])[:300], file=sys.stderr)
            noise = noise_runs[0]
        for name, (cgroups, groups) in CASES.items():
            if only and name not in only:
                continue
            results = []
            for r in range(runs):
                results.append(run_case(name, cgroups, groups))
                g0 = results[-1]["groups"][0]
                print(name, r, "switch", g0["switchLatencyUs"], "return", g0["returnLatencyUs"],
                      "bg", results[-1]["background"]["runsPerSec"], file=sys.stderr)
                time.sleep(0.5)
            kept[name] = {"name": name, "durationMs": DURATION_MS,
                          "cgroups": [{"name": n, "shares": s, "quotaUs": q, "periodUs": p} for n, s, q, p in cgroups],
                          "groups": [{"kind": k, "count": c, "args": a, "cpu": cpu, "nice": nice, "cgroup": cg}
                                     for k, c, a, cpu, nice, cg in groups],
                          "runs": results}
            # the reasons written for figures the model misses stay with the case
            if "knownDeviations" in before.get(name, {}):
                kept[name]["knownDeviations"] = before[name]["knownDeviations"]
    finally:
        write("/proc/sys/kernel/sched_autogroup_enabled", autogroup)
        write(os.path.join(TRACING, "tracing_on"), 0)
        remove_cgroups()
    # what a person wrote about the host (which one it is, the model's costs derived for it) stays with the file
    written = {k: doc[k] for k in ("host", "hardware") if k in doc}
    doc = {"machine": "%d vCPU, Linux %s, HZ from CONFIG, cgroup v1 cpu controller" % (
               os.cpu_count(), platform.release()),
           **written,
           "howMeasured": "scripts/measure-latency.py (src/test/c/latbench.c under a tracefs trace, trace_clock "
                          "mono; its threads compute without system calls), %d runs of %d ms per case; latencies skip the first "
                          "100 ms" % (runs, DURATION_MS),
           "machineNoise": noise,
           "machineNoiseRuns": noise_runs,
           "cases": [kept[n] for n in CASES if n in kept]}
    with open(OUT, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    print("wrote", OUT, file=sys.stderr)


if __name__ == "__main__":
    main()
