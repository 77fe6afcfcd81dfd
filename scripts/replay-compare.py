#!/usr/bin/env python3
"""The loop closed (issue 23, item 4): records src/test/c/latbench.c's threads on this machine's kernel with
tracefs (sched_switch, sched_waking, sched_wakeup, sched_process_exit, filtered to latbench's comm), imports the
recording into SchedSim as an ftrace workload, simulates it on validation-2c, and prints per thread the real and
the simulated CPU time, wakeups, context switches and wakeup latency (p50 / p99: sched_waking to the switch in).

The real CPU time and context switches are latbench's own (/proc/self/task/TID/sched), wakeups and latencies
the trace's; the simulated ones are the result's. Needs root
and gcc; run it as `flock /work/kernel.lock flock /work/ports.lock scripts/replay-compare.py` on a quiet machine:
other load changes what the real threads get and how late they run.

usage: scripts/replay-compare.py [DURATION_MS [GROUP...]]   (default 1000 ms, "periodic,2,2000,3000" "busy,1";
       RC_SAVE=FILE keeps the recording and latbench's counters (FILE.own.json); RC_LOAD=FILE replays a kept one
       without recording)
"""
import gzip
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(tempfile.gettempdir(), "ss-replaybench")
COMM = "ss-replaybench"
LINE = re.compile(r"^\s*(.+)-(\d+)\s+(?:\(\s*[\d-]+\)\s+)?\[(\d+)\]\s+(?:\S{4,5}\s+)?(\d+\.\d+):\s+(\w+):\s?(.*)$")
ARG = re.compile(r"(\w+)=(.*?)(?=\s+\w+=|\s+==>\s|\s*$)")


def tracefs():
    t = "/sys/kernel/tracing"
    if not os.path.exists(os.path.join(t, "trace")):
        t = tempfile.mkdtemp()
        subprocess.run(["mount", "-t", "tracefs", "nodev", t], check=True)
    return t


def write(path, value):
    with open(path, "w") as f:
        f.write(str(value))


def record(ms, groups):
    subprocess.run(["gcc", "-O2", "-pthread", "-o", BIN, os.path.join(ROOT, "src", "test", "c", "latbench.c")],
                   check=True)
    t = tracefs()
    events = ["sched_switch", "sched_waking", "sched_wakeup", "sched_process_exit"]
    write(t + "/tracing_on", 0)
    write(t + "/trace", "")
    write(t + "/buffer_size_kb", 8192)
    write(t + "/events/sched/sched_switch/filter", 'prev_comm == "%s" || next_comm == "%s"' % (COMM, COMM))
    for e in ("sched_waking", "sched_wakeup", "sched_process_exit"):
        write(t + "/events/sched/%s/filter" % e, 'comm == "%s"' % COMM)
    for e in events:
        write(t + "/events/sched/%s/enable" % e, 1)
    write(t + "/tracing_on", 1)
    out = subprocess.run([BIN, str(ms)] + groups, check=True, capture_output=True, text=True).stdout
    write(t + "/tracing_on", 0)
    for e in events:
        write(t + "/events/sched/%s/enable" % e, 0)
        write(t + "/events/sched/%s/filter" % e, 0)
    with open(t + "/trace") as f:
        text = f.read()
    write(t + "/trace", "")
    # latbench's own counters per thread (/proc/self/task/TID/sched): CPU time and context switches
    own = {}
    for line in out.splitlines():
        if line.startswith("{") and '"tid"' in line:
            d = json.loads(line)
            sched = {k.strip(): v for k, v in (r.split(":", 1) for r in d["sched"].split("\n") if ":" in r)}
            own[d["tid"]] = {"cpu_ms": float(sched["se.sum_exec_runtime"].strip()),
                             "switches": int(float(sched["nr_switches"].strip()))}
    return text, own


def real_stats(text):
    """Per pid: CPU ns, wakeups, switches out, wakeup latencies (µs), and the trace's span (ns)."""
    stats, on, woken, first, last = {}, {}, {}, None, None
    for line in text.splitlines():
        m = LINE.match(line)
        if not m or line.startswith("#"):
            continue
        ts = round(float(m.group(4)) * 1e9)
        first = ts if first is None else first
        last = ts
        args = dict(ARG.findall(m.group(6)))
        ev = m.group(5)
        if ev == "sched_switch":
            prev, nxt = int(args["prev_pid"]), int(args["next_pid"])
            if args["prev_comm"] == COMM:
                s = stats.setdefault(prev, {"cpu": 0, "wakeups": 0, "switches": 0, "lat": []})
                if prev in on:
                    s["cpu"] += ts - on.pop(prev)
                s["switches"] += 1
            if args["next_comm"] == COMM:
                s = stats.setdefault(nxt, {"cpu": 0, "wakeups": 0, "switches": 0, "lat": []})
                on[nxt] = ts
                if nxt in woken:
                    s["lat"].append((ts - woken.pop(nxt)) / 1000)
        elif ev == "sched_waking" and args.get("comm") == COMM:
            pid = int(args["pid"])
            s = stats.setdefault(pid, {"cpu": 0, "wakeups": 0, "switches": 0, "lat": []})
            s["wakeups"] += 1
            woken[pid] = ts
    for pid, since in on.items():
        stats[pid]["cpu"] += last - since
    return stats, (last - first) if first is not None else 0


def pct(values, p):
    if not values:
        return float("nan")
    v = sorted(values)
    return v[min(len(v) - 1, int(p / 100 * len(v)))]


def simulate(text, span_ns):
    jar = subprocess.run(["bash", "-c", "source scripts/lib.sh; service_jar"], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout.strip()
    port = subprocess.run(["bash", "-c", "source scripts/lib.sh; service_port 0"], cwd=ROOT, check=True,
                          capture_output=True, text=True).stdout.strip()
    db = tempfile.mkdtemp()
    svc = subprocess.Popen(["java", "-jar", jar, "--server.port=" + port, "--schedsim.warmup=0s",
                            "--spring.datasource.url=jdbc:h2:file:" + db + "/replay"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        subprocess.run(["bash", "-c", "source scripts/lib.sh; await_up %s 90 %d" % (port, svc.pid)], cwd=ROOT,
                       check=True)
        body = {"name": "replay-compare", "topology": {"preset": "validation-2c"}, "kernel": {"profile": "6.18"},
                "durationMs": max(1, span_ns // 1_000_000 + 50),
                "workloads": [{"type": "ftrace", "ftrace": text, "select": [COMM]}]}
        req = urllib.request.Request("http://127.0.0.1:%s/api/v1/simulations" % port,
                                     data=gzip.compress(json.dumps(body).encode()), method="POST",
                                     headers={"Content-Type": "application/json", "Content-Encoding": "gzip"})
        sim = json.load(urllib.request.urlopen(req))
        for _ in range(1200):
            job = json.load(urllib.request.urlopen("http://127.0.0.1:%s/api/v1/simulations/%s" % (port, sim["id"])))
            if job["status"] not in ("QUEUED", "RUNNING"):
                return job
            time.sleep(0.25)
        raise SystemExit("the simulation did not finish")
    finally:
        svc.terminate()
        svc.wait()


def main():
    ms = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    groups = sys.argv[2:] or ["periodic,2,2000,3000", "busy,1"]
    if os.environ.get("RC_LOAD"):
        # a recording kept by RC_SAVE: the import can be re-run on it without the kernel (or a quiet machine)
        with open(os.environ["RC_LOAD"]) as f:
            text = f.read()
        with open(os.environ["RC_LOAD"] + ".own.json") as f:
            own = {int(k): v for k, v in json.load(f).items()}
    else:
        text, own = record(ms, groups)
    if os.environ.get("RC_SAVE"):
        with open(os.environ["RC_SAVE"], "w") as f:
            f.write(text)
        with open(os.environ["RC_SAVE"] + ".own.json", "w") as f:
            json.dump(own, f)
    real, span = real_stats(text)
    job = simulate(text, span)
    if job["status"] != "SUCCEEDED":
        raise SystemExit("simulation %s: %s" % (job["status"], job.get("error")))
    print("skipped by the import: %s" % job["request"]["imports"][0]["skipped"])
    print("%-22s %16s %14s %14s %18s %18s" % ("thread", "CPU ms real/sim", "wakeups", "switches",
                                                "wake lat p50 µs", "wake lat p99 µs"))
    for w in job["result"]["variants"][0]["workloads"]:
        pid = int(w["name"].rsplit("-", 1)[1])
        r = real.get(pid)
        if r is None:
            continue
        lat = w["wakeupLatencyUs"] or {}
        o = own.get(pid, {"cpu_ms": r["cpu"] / 1e6, "switches": r["switches"]})
        print("%-22s %7.1f / %6.1f %6d / %5d %6d / %5d %8.1f / %7.1f %8.1f / %7.1f" % (
            w["name"], o["cpu_ms"], w["cpuUsec"] / 1000, r["wakeups"], w["wakeups"], o["switches"],
            w["contextSwitches"], pct(r["lat"], 50), lat.get("p50") or float("nan"), pct(r["lat"], 99),
            lat.get("p99") or float("nan")))


if __name__ == "__main__":
    main()
