#!/usr/bin/env bash
# Records a small real-kernel ftrace text for the ftrace import's tests: two threads of a Python program, one
# periodic (spins ~2 ms, sleeps 3 ms) and one that spins 150 ms, traced with tracefs (sched_switch, sched_waking,
# sched_wakeup, sched_process_fork, sched_process_exit, filtered to their comms) for about 0.3 s, then a window
# of the text from its middle, so that the first and last events of each thread are cut as in any recording.
# Needs root; run it under `flock /work/kernel.lock`.
# usage: scripts/record-ftrace.sh OUT_FILE
set -euo pipefail
out=$1
t=/sys/kernel/tracing
if [ ! -e "$t/trace" ]; then
  t=$(mktemp -d); mount -t tracefs nodev "$t"; trap 'umount "$t"; rmdir "$t"' EXIT
fi
names='prev_comm == "ss-periodic" || next_comm == "ss-periodic" || prev_comm == "ss-spin" || next_comm == "ss-spin"'
echo 0 > "$t/tracing_on"; echo > "$t/trace"; echo 4096 > "$t/buffer_size_kb"
echo 1 > "$t/options/record-tgid"
echo "$names" > "$t/events/sched/sched_switch/filter"
for e in sched_waking sched_wakeup; do echo 'comm == "ss-periodic" || comm == "ss-spin"' > "$t/events/sched/$e/filter"; done
for e in sched_switch sched_waking sched_wakeup sched_process_fork sched_process_exit; do
  echo 1 > "$t/events/sched/$e/enable"
done
echo 1 > "$t/tracing_on"
python3 - <<'PY'
import threading, time
def name(n):
    with open('/proc/thread-self/comm', 'w') as f:
        f.write(n)
def spin(s):
    end = time.perf_counter() + s
    while time.perf_counter() < end:
        pass
def periodic():
    name('ss-periodic')
    for _ in range(60):
        spin(0.002); time.sleep(0.003)
def spinner():
    name('ss-spin')
    time.sleep(0.05); spin(0.15)
ts = [threading.Thread(target=periodic), threading.Thread(target=spinner)]
[x.start() for x in ts]; [x.join() for x in ts]
PY
echo 0 > "$t/tracing_on"
for e in sched_switch sched_waking sched_wakeup sched_process_fork sched_process_exit; do
  echo 0 > "$t/events/sched/$e/enable"
done
for e in sched_switch sched_waking sched_wakeup; do echo 0 > "$t/events/sched/$e/filter"; done
echo 0 > "$t/options/record-tgid"
full=$(mktemp); cat "$t/trace" > "$full"; echo > "$t/trace"
# The header, then events from 20 % to 80 % of the recording; the window's first line cut in its middle.
grep '^#' "$full" > "$out"
n=$(grep -vc '^#' "$full")
grep -v '^#' "$full" | sed -n "$((n / 5)),$((n * 4 / 5))p" | sed '1s/^\(.\{40\}\).*/\1/' >> "$out"
rm -f "$full"
echo "$(grep -vc '^#' "$out") event lines in $out"
