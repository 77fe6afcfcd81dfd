#!/usr/bin/env bash
# Where does the real kernel run a validation case's threads, and when does each CPU stop for throttling?
# Records sched_switch with tracefs while ../shared/validation/realkernel/measure.sh runs one case, then prints,
# per CPU, the time the spin threads ran and every gap of more than 5 ms without them (throttled windows, or
# all of that CPU's threads asleep). Needs root and an otherwise idle machine.
# usage: scripts/kernel-trace.sh QUOTA_US PERIOD_US BURST_US THREADS RUN_US SLEEP_US WALL_MS [PARENT_QUOTA_US]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
t=/sys/kernel/tracing
if [ ! -e "$t/trace" ]; then
  t=$(mktemp -d); mount -t tracefs nodev "$t"; trap 'umount "$t"; rmdir "$t"' EXIT
fi
echo 0 > "$t/tracing_on"; echo > "$t/trace"; echo 16384 > "$t/buffer_size_kb"
echo 1 > "$t/events/sched/sched_switch/enable"; echo 1 > "$t/tracing_on"
bash "$root/../shared/validation/realkernel/measure.sh" trace "$@"
echo 0 > "$t/tracing_on"; echo 0 > "$t/events/sched/sched_switch/enable"
python3 - "$t/trace" <<'PY'
import collections, re, sys
runs = collections.defaultdict(list); cur = {}
pat = re.compile(r'\[(\d+)\].*?\s(\d+\.\d+): sched_switch: prev_comm=(.*?) prev_pid=\d+ .* ==> next_comm=(.*?) next_pid')
for line in open(sys.argv[1]):
    m = pat.search(line)
    if not m:
        continue
    cpu, t, prev, nxt = int(m.group(1)), float(m.group(2)), m.group(3), m.group(4)
    if prev == 'schedsim-spin' and cpu in cur:
        runs[cpu].append((cur.pop(cpu), t))
    if nxt == 'schedsim-spin':
        cur[cpu] = t
for cpu in sorted(runs):
    r = runs[cpu]
    gaps = [(a[1], b[0]) for a, b in zip(r, r[1:]) if b[0] - a[1] > 0.005]
    print("cpu %d: spin ran %.1f ms; %d gaps > 5 ms, %.1f ms in all" % (cpu, sum(b - a for a, b in r) * 1000, len(gaps),
          sum(b - a for a, b in gaps) * 1000))
    for a, b in gaps:
        print("   %.4f -> %.4f  %.1f ms" % (a, b, (b - a) * 1000))
PY
