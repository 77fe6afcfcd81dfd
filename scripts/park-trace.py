#!/usr/bin/env python3
"""Where a throttled group's threads wait, per CPU, on the real kernel or in the model (issue 32).

6.18 parks a throttled group's thread when it returns to user space (task-based throttle, e1fad12dcb66): the trace
shows it switched out runnable with nothing else to run (prev_state R, next the idle task) and waiting until one of
the group's threads is switched in there again. The sum of those intervals is the group's throttled time (cpu.stat
throttled_time counts from the first parked task to the unthrottle on each CPU); measured against cpu.stat it
agrees within 1 % (2026-12-07: 575.4 against 579.0 ms, 601.6 against 600.9, 368.1 against 366.3).

usage: scripts/park-trace.py measure QUOTA_US THREADS RUN_US SLEEP_US SECONDS [work|thread]
         (root, cgroup v1 cpu at /sys/fs/cgroup/cpu, tracefs; a quiet machine: runs latbench under a sched_switch
          trace, prints cpu.stat and the analysis, keeps the trace in $TMPDIR/park-trace.txt)
       scripts/park-trace.py analyse FILE COMM
         (an ftrace text file: the kernel's, or the model's from
          ./mvnw test -Dtest=BandwidthCaseTrace -Dtrace.case=SET/CASE -Dtrace.out=FILE, whose threads are "spin")
       scripts/park-trace.py cycles FILE COMM [kernel|model]
         (each cycle's CPU by how it began: after a task, preempting, or out of idle by the idle's length; the
          kernel's trace needs sched_wakeup: PT_EVENTS="sched:sched_switch sched:sched_wakeup" for measure)
analyse prints the parked time per CPU, how much of it ends at the period timer, the parked time per period (a park
belongs to the first period timer at or after its end) and, where both CPUs park, how long before the timer each
first parks.
"""
import importlib.util
import os
import re
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("measure_latency", os.path.join(HERE, "measure-latency.py"))
ml = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ml)
TMP = os.environ.get("TMPDIR", "/tmp")
# measure-latency.py's line pattern, with the tgid column the model's FtraceWriter prints ("(   1000)") allowed
LINE = re.compile(r"^\s*(.+)-(\d+)\s+(?:\([^)]*\)\s+)?\[(\d+)\]\s+\S+\s+(\d+\.\d+):\s+(\w+):\s+(.*)$")
FIELD = ml.FIELD
write = ml.write


def measure(quota, threads, run, sleep, seconds, clock):
    latbench = ml.BIN
    subprocess.run(["gcc", "-O2", "-pthread", "-o", latbench, ml.SRC], check=True)
    base = os.path.join(ml.CG, "schedsim_park")
    child = os.path.join(base, "child")
    for d in (child, base):
        if os.path.isdir(d):
            os.rmdir(d)
    os.mkdir(base)
    write(os.path.join(base, "cpu.cfs_period_us"), 100000)
    write(os.path.join(base, "cpu.cfs_quota_us"), -1)
    os.mkdir(child)
    write(os.path.join(child, "cpu.cfs_period_us"), 100000)
    write(os.path.join(child, "cpu.cfs_quota_us"), quota)
    if not os.path.isdir(os.path.join(ml.TRACING, "events")):
        subprocess.run(["mount", "-t", "tracefs", "nodev", ml.TRACING], check=True)
    write(os.path.join(ml.TRACING, "tracing_on"), 0)
    write(os.path.join(ml.TRACING, "trace"), "")
    write(os.path.join(ml.TRACING, "trace_clock"), "mono")
    write(os.path.join(ml.TRACING, "buffer_size_kb"), 65536)
    write(os.path.join(ml.TRACING, "set_event"), os.environ.get("PT_EVENTS", "sched:sched_switch"))
    group = "periodic,%d,%d,%d" % (threads, run, sleep) + (",clock=thread" if clock == "thread" else "")
    write(os.path.join(ml.TRACING, "tracing_on"), 1)
    subprocess.run([latbench, str(seconds * 1000), group + ",cg=" + child], check=True, capture_output=True)
    write(os.path.join(ml.TRACING, "tracing_on"), 0)
    stat = dict(line.split() for line in open(os.path.join(child, "cpu.stat")))
    out = os.path.join(TMP, "park-trace.txt")
    subprocess.run(["cp", os.path.join(ml.TRACING, "trace"), out], check=True)
    os.rmdir(child)
    os.rmdir(base)
    print("cpu.stat: %s throttled periods, throttled_time %.1f ms" % (stat["nr_throttled"],
                                                                      int(stat["throttled_time"]) / 1e6))
    analyse(out, "schedsim-latben")


def parked_intervals(path, comm):
    parked, out = {}, []
    for line in open(path, errors="replace"):
        m = LINE.match(line)
        if not m or m.group(5) != "sched_switch":
            continue
        cpu, t, f = int(m.group(3)), float(m.group(4)), dict(FIELD.findall(m.group(6)))
        if f["prev_comm"].startswith(comm) and f["prev_state"].startswith("R") and f["next_pid"] == "0" \
                and cpu not in parked:
            parked[cpu] = t
        if f["next_comm"].startswith(comm) and cpu in parked:
            out.append((cpu, parked.pop(cpu), t))
    return out


def quantiles(values):
    v = sorted(values)
    return "p10 %.2f p50 %.2f p90 %.2f max %.2f" % (v[len(v) // 10], v[len(v) // 2], v[9 * len(v) // 10], v[-1])


def analyse(path, comm):
    iv = parked_intervals(path, comm)
    if not iv:
        print("no parked intervals")
        return
    # the period timer: the commonest phase (mod 100 ms, to 1 ms) at which parked threads run again
    phases = {}
    for _, _, b in iv:
        phases[round((b % 0.1) * 1000)] = phases.get(round((b % 0.1) * 1000), 0) + 1
    coarse = max(phases, key=phases.get) / 1000
    timer = statistics.median(b % 0.1 for _, _, b in iv if abs((b % 0.1) - coarse) < 0.001)

    def before_timer(t):
        return ((timer - t) % 0.1) * 1000

    per_cpu = {}
    for c, a, b in iv:
        per_cpu[c] = per_cpu.get(c, 0) + (b - a) * 1000
    at_timer = [x for x in iv if min(before_timer(x[2]), 100 - before_timer(x[2])) < 0.5]
    print("parked: %d intervals, %.1f ms (%s); ending at the period timer %d, %.1f ms" % (
        len(iv), sum(per_cpu.values()), ", ".join("cpu%d %.1f" % kv for kv in sorted(per_cpu.items())),
        len(at_timer), sum((b - a) for _, a, b in at_timer) * 1000))
    periods = {}
    for c, a, b in iv:
        # the period a park belongs to: the first period timer at or after it ends (0.5 ms of tolerance)
        k = int((b - timer - 0.0005) // 0.1) + 1
        periods.setdefault(k, {}).setdefault(c, []).append((a, b))
    totals = [sum((b - a) * 1000 for l in v.values() for a, b in l) for v in periods.values()]
    both = [v for v in periods.values() if len(v) == 2]
    print("per period: parked ms %s (mean %.2f, %d periods)" % (quantiles(totals), statistics.mean(totals),
                                                                  len(totals)))
    if both:
        first = [max(before_timer(min(a for a, _ in l)) for l in v.values()) for v in both]
        second = [min(before_timer(min(a for a, _ in l)) for l in v.values()) for v in both]
        print("periods with both CPUs parked: %d; the first parks %.2f ms before the timer, the second %.2f "
              "(medians)" % (len(both), statistics.median(first), statistics.median(second)))


def cycles(path, comm, side="kernel"):
    """A thread's CPU a cycle as the kernel charges it, by how each cycle began: its on-CPU time from the switch-in
    after a wakeup to the switch-out into its next sleep (prev_state S; parks and preemptions between included), plus
    the time from its sched_wakeup to that switch-in when the switch-in follows the wakeup onto an idle CPU or a
    wakeup preemption (prev_state R). wakeup_preempt() then calls rq_clock_skip_update() (the idle task counts as
    queued, init_idle()), __schedule() skips its clock update and set_next_entity() starts exec_start at the
    enqueue's clock: the woken task pays that interval as its own runtime (the trace needs sched_wakeup:
    PT_EVENTS="sched:sched_switch sched:sched_wakeup"). IRQ time accounting off: what interrupts take while it is
    on the CPU is its own too, as in se.sum_exec_runtime; a host's steal is not taken out here. The model charges
    the woken task after its switch-in instead (HardwareModel.idleExitCpuShare, a stall in its own time), so its
    trace ("model") adds nothing before the switch-in."""
    idle_since, on, cur, out, woke = {}, {}, {}, [], {}
    for line in open(path, errors="replace"):
        m = LINE.match(line)
        if not m:
            continue
        event, cpu, t, f = m.group(5), int(m.group(3)), float(m.group(4)), dict(FIELD.findall(m.group(6)))
        if event == "sched_wakeup" and f.get("comm", "").startswith(comm):
            woke[f["pid"]] = t
            continue
        if event != "sched_switch":
            continue
        if f["prev_comm"].startswith(comm):
            p = f["prev_pid"]
            if p in on and p in cur:
                cur[p]["cpu"] += t - on.pop(p)
                if f["prev_state"][0] != "R":
                    out.append(cur.pop(p))
            on.pop(p, None)
        if f["next_pid"] == "0":
            idle_since[cpu] = t
        if f["next_comm"].startswith(comm):
            p = f["next_pid"]
            on[p] = t
            if p not in cur:
                from_idle = f["prev_pid"] == "0"
                preempting = not from_idle and f["prev_state"][0] == "R" and p in woke \
                    and t - woke[p] < ml.PREEMPT_WITHIN_S
                before = t - woke[p] if side == "kernel" and (from_idle or preempting) and p in woke else 0.0
                cur[p] = {"cpu": before, "before": before, "preempting": preempting,
                          "idle": t - idle_since[cpu] if from_idle and cpu in idle_since else None}
            woke.pop(p, None)
    out = out[len(out) // 20:]  # the start
    if not out:
        print("no cycles")
        return
    print("cycles %d: CPU a cycle mean %.1f us, median %.1f; charged before the switch-in %.1f a cycle" % (
        len(out), 1e6 * statistics.mean(c["cpu"] for c in out), 1e6 * statistics.median(c["cpu"] for c in out),
        1e6 * statistics.mean(c["before"] for c in out)))
    bins = [(0.0002, "idle <0.2 ms"), (0.001, "idle 0.2-1 ms"), (0.002, "idle 1-2 ms"), (0.004, "idle 2-4 ms"),
            (float("inf"), "idle >4 ms")]
    groups = {}
    for c in out:
        if c["idle"] is not None:
            k = next(name for limit, name in bins if c["idle"] < limit)
        else:
            k = "preempting" if c["preempting"] else "after a task"
        groups.setdefault(k, []).append(c)
    for k in ["after a task", "preempting"] + [name for _, name in bins]:
        v = groups.get(k)
        if v:
            print("  %-14s %5d (%4.1f %%) median %7.1f us, mean %7.1f; before the switch-in median %5.1f" % (
                k, len(v), 100 * len(v) / len(out), 1e6 * statistics.median(c["cpu"] for c in v),
                1e6 * statistics.mean(c["cpu"] for c in v), 1e6 * statistics.median(c["before"] for c in v)))


if __name__ == "__main__":
    if len(sys.argv) >= 7 and sys.argv[1] == "measure":
        measure(*map(int, sys.argv[2:7]), sys.argv[7] if len(sys.argv) > 7 else "thread")
    elif len(sys.argv) == 4 and sys.argv[1] == "analyse":
        analyse(sys.argv[2], sys.argv[3])
    elif len(sys.argv) in (4, 5) and sys.argv[1] == "cycles":
        cycles(*sys.argv[2:])
    else:
        print(__doc__)
        sys.exit(2)
