#!/usr/bin/env python3
"""The cost of being apart, on this machine's real kernel: a pipe ping-pong pair (src/test/c/latbench.c's
pingpong, two threads of one process, WORK_US of CPU on each side) stacked on one CPU against apart on two, with
the idle CPUs halting as the machine has them and with them polling (PM QoS: /dev/cpu_dma_latency held at 0, so
cpuidle picks its POLL state: no halt, no wakeup IPI — set_nr_if_polling() finds the polling flag — and, on a
virtual machine, no exit to the host). Polling is the nearest this guest comes to a bare-metal CPU whose idle
state is left by a store to the monitored line (intel_idle's MWAIT states), so what is left apart over stacked
there is the kernel's own work: the switches into and out of the idle task, the activation on the wakee's CPU
(sched_ttwu_pending()), and the lines the pipe and the wakeup move between the CPUs.

Prints, per variant and run: wall time, the two threads' CPU time (sum_exec_runtime) and their context switches
per transaction. Run on a quiet machine (no build, no JVM), as root; it restores nothing it did not change.

usage: scripts/apart-cost.py [DURATION_MS (3000)] [WORK_US (0)] [RUNS (3)]
"""
import json
import os
import re
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(os.path.dirname(HERE), "src", "test", "c", "latbench.c")
BIN = os.path.join(os.environ.get("TMPDIR", "/tmp"), "schedsim-latbench")


def run(duration_ms, spec):
    """One latbench run: (wall, CPU) µs and switches per transaction."""
    out = subprocess.run([BIN, str(duration_ms), spec], capture_output=True, text=True, check=True).stdout
    threads = [json.loads(l) for l in out.splitlines() if l.startswith('{"group"')]
    tx = next(t["units"] for t in threads if t["kind"] == "pp-client")
    cpu_ms = sum(float(re.search(r"sum_exec_runtime\s*:\s*([\d.]+)", t["sched"]).group(1)) for t in threads)
    switches = sum(int(re.search(r"\nnr_switches\s*:\s*(\d+)", t["sched"]).group(1)) for t in threads)
    return duration_ms * 1000.0 / tx, cpu_ms * 1000.0 / tx, switches / tx


def main():
    duration_ms = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
    work = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    subprocess.run(["gcc", "-O2", "-pthread", "-o", BIN, SRC], check=True)
    for idle in ("halt", "poll"):
        qos = None
        if idle == "poll":
            qos = os.open("/dev/cpu_dma_latency", os.O_WRONLY)  # held open: the request lasts while it is
            os.write(qos, struct.pack("i", 0))
        try:
            for name, spec in (("stacked", "pingpong,1,%d,%d,cpu=1" % (work, work)),
                               ("apart", "pingpong,1,%d,%d,cpu=0,peer=1" % (work, work))):
                for _ in range(runs):
                    wall, cpu, sw = run(duration_ms, spec)
                    print("%s idle  %-7s work %d us: wall %6.2f us/tx  CPU %6.2f us/tx  switches %.2f/tx"
                          % (idle, name, work, wall, cpu, sw), flush=True)
        finally:
            if qos is not None:
                os.close(qos)


if __name__ == "__main__":
    main()
