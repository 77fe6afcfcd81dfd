#!/usr/bin/env python3
"""Does a timed sleep cost its thread more when its timer is the CPU's first? (docs/latency-validation.md,
"A sleep's reprogram").

A 50 us sleeper beside a busy thread, both pinned to CPU 1 (the CPU never idles, so its tick runs): the sleeper's CPU
a cycle (/proc/self/task/TID/sched's se.sum_exec_runtime over its cycles, from src/test/c/latbench.c) for sleeps of
950, 2 950 and 3 950 us. A sleep shorter than the time to the next tick (every 4 ms at HZ 250) arms the CPU's first
timer and reprograms the clock-event device; the model's split predicts 950 us about 2.7 us dearer than 3 950 us
(0.74 x 3.6 us) on the validation guest's second host. Needs Linux and gcc (no root); run on a quiet machine.

usage: scripts/probe-first-timer.py [RUNS (6)] [SECONDS (6)]
"""
import json
import os
import re
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(os.path.dirname(HERE), "src", "test", "c", "latbench.c")
BIN = os.path.join(os.environ.get("TMPDIR", "/tmp"), "schedsim-latbench")


def cycle(sleep_us, ms):
    out = subprocess.run([BIN, str(ms), "busy,1,cpu=1", "periodic,1,50,%d,cpu=1" % sleep_us],
                         capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        if line.startswith('{"group"'):
            t = json.loads(line)
            if t["kind"] == "periodic":
                ns = re.search(r"se\.sum_exec_runtime\s*:\s*([0-9.]+)", t["sched"]).group(1)
                return 1000 * float(ns) / t["units"]


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 6
    ms = 1000 * (int(sys.argv[2]) if len(sys.argv) > 2 else 6)
    subprocess.run(["gcc", "-O2", "-pthread", "-o", BIN, SRC], check=True)
    res = {950: [], 2950: [], 3950: []}
    for r in range(runs):
        for s in res:
            res[s].append(cycle(s, ms))
        print(r, {s: round(v[-1], 2) for s, v in res.items()}, flush=True)
    for s, v in res.items():
        print("sleep %5d us: CPU a cycle median %.2f, min %.2f, max %.2f us" % (s, statistics.median(v), min(v), max(v)))


if __name__ == "__main__":
    main()
