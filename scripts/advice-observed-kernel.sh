#!/usr/bin/env bash
# Advice from observed counters, checked on this machine's real kernel (docs/advisor.md, "From observed counters").
#
# Each of RUNS rounds: observe a 3-thread periodic workload (src/test/c/latbench.c: 2000 µs of work, 8000 µs of
# sleep, about 0.6 CPU) for 5 s in a cgroup v1 cpu directory at a too-small limit (60000 100000), reading its
# cpu.stat (nr_periods, nr_throttled, throttled_time) and cpuacct.usage; post those counters alone to the service
# (target/schedsim-*.jar on a free port, H2 in memory) with the objective "at most 10 % of periods throttled";
# then run the workload again at the advised cpu.max and one resolution step (1000 µs) below it and report the
# throttled share the kernel measured.
#
# Needs root and the cgroup v1 cpu and cpuacct controllers at /sys/fs/cgroup/{cpu,cpuacct}. The measurements run
# under /work/tools/quiet.sh hold where it is installed (no maven or java meanwhile); the service runs between them, never during one.
#
# usage: scripts/advice-observed-kernel.sh [RUNS]      (default 3)
#   AOK_THREADS, AOK_RUN_US, AOK_SLEEP_US, AOK_CLOCK, AOK_QUOTA_US, AOK_PERIOD_US, AOK_WALL_MS, AOK_OBJECTIVE_PCT
#   override the workload, the too-small limit, the window and the objective.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

THREADS=${AOK_THREADS:-3}
RUN_US=${AOK_RUN_US:-2000}
SLEEP_US=${AOK_SLEEP_US:-8000}
QUOTA_US=${AOK_QUOTA_US:-60000}
PERIOD_US=${AOK_PERIOD_US:-100000}
WALL_MS=${AOK_WALL_MS:-5000}
OBJECTIVE_PCT=${AOK_OBJECTIVE_PCT:-10}
# work: latbench's vDSO loop (RUN_US of its own work, the kernel sees the run at ticks); thread: runs of RUN_US of
# the thread's CPU clock, read by a system call in the loop (its CPU time per cycle fixed, as the model's)
CLOCK=${AOK_CLOCK:-thread}
QUIET=${AOK_QUIET:-/work/tools/quiet.sh}
# quiet.sh hold CMD: waits for the machine to be quiet, runs CMD; where it is not installed, CMD runs as it is (keep
# the machine quiet yourself: no build, no JVM)
hold() { if [[ -x "$QUIET" ]]; then "$QUIET" hold "$@"; else "$@"; fi; }
LATBENCH=${AOK_LATBENCH:-}
CPU=/sys/fs/cgroup/cpu/schedsim_aok
ACCT=/sys/fs/cgroup/cpuacct/schedsim_aok

# One window of the workload at cpu.max "$1 $2": its counters as an observed window (JSON, one line).
observe() {
  local quota=$1 period=$2 t0 t1
  rmdir "$CPU" "$ACCT" 2>/dev/null || true
  mkdir "$CPU" "$ACCT"
  echo "$period" >"$CPU/cpu.cfs_period_us"
  echo "$quota" >"$CPU/cpu.cfs_quota_us"
  t0=$(date +%s%N)
  # the process in the cpuacct group (its threads inherit it); latbench moves its threads into the cpu group
  (echo "$BASHPID" >"$ACCT/tasks"; exec "$LATBENCH" "$WALL_MS" \
    "periodic,$THREADS,$RUN_US,$SLEEP_US$([[ $CLOCK == thread ]] && echo ,clock=thread),cg=$CPU") \
    >/dev/null 2>&1
  t1=$(date +%s%N)
  awk -v q="$quota" -v p="$period" -v ms=$(((t1 - t0) / 1000000)) -v usage="$(cat "$ACCT/cpuacct.usage")" '
    {s[$1] = $2}
    END {printf "{\"cpuMax\": \"%d %d\", \"windowMs\": %d, \"nrPeriods\": %d, \"nrThrottled\": %d, " \
                "\"throttledUsec\": %d, \"usageUsec\": %d}\n", q, p, ms, s["nr_periods"], s["nr_throttled"],
                int(s["throttled_time"] / 1000), int(usage / 1000)}' "$CPU/cpu.stat"
  rmdir "$CPU" "$ACCT"
}

# The measurement phases, run by quiet.sh hold: "observe N" prints N windows at the too-small limit; "check Q..."
# prints one window at each quota Q.
if [[ "${1:-}" == --observe ]]; then
  for _ in $(seq 1 "$2"); do observe "$QUOTA_US" "$PERIOD_US"; done
  exit 0
elif [[ "${1:-}" == --check ]]; then
  shift
  for q in "$@"; do observe "$q" "$PERIOD_US"; done
  exit 0
fi

RUNS=${1:-3}
WORK=$(mktemp -d /tmp/schedsim-aok.XXXXXX)
pid=
trap 'if [[ -n "$pid" ]]; then kill "$pid" 2>/dev/null || true; fi; rm -rf "$WORK"' EXIT
LATBENCH=$WORK/latbench
gcc -O2 -pthread -o "$LATBENCH" src/test/c/latbench.c
export AOK_LATBENCH=$LATBENCH
jar=$(service_jar)

echo "observing $THREADS threads of ${RUN_US}/${SLEEP_US} µs (clock $CLOCK) at cpu.max \"$QUOTA_US $PERIOD_US\" for $WALL_MS ms," \
  "$RUNS times (quiet machine)..." >&2
# (the service's JVM is not running yet: quiet.sh would wait for it)
hold bash "$0" --observe "$RUNS" >"$WORK/observed"

port=$(service_port 0)
java -jar "$jar" --server.port="$port" --spring.datasource.url="jdbc:h2:mem:aok;DB_CLOSE_DELAY=-1" \
  --schedsim.advice.poll-interval=50ms >"$WORK/service.log" 2>&1 &
pid=$!
await_up "$port" 120 "$pid"
answers=()
while read -r window; do
  body="{\"observed\": [$window], \"threads\": $THREADS, \"topology\": {\"preset\": \"validation-2c\"},
         \"objective\": {\"maxThrottledPeriodsPct\": $OBJECTIVE_PCT}}"
  id=$(curl -fsS -X POST "http://127.0.0.1:$port/api/v1/advice" -H 'Content-Type: application/json' -d "$body" \
    | jq -r .id)
  until curl -fsS "http://127.0.0.1:$port/api/v1/advice/$id" | jq -e '.status != "RUNNING"' >/dev/null; do
    sleep 0.5
  done
  curl -fsS "http://127.0.0.1:$port/api/v1/advice/$id" >"$WORK/advice-$id.json"
  jq -e '.status == "SUCCEEDED"' "$WORK/advice-$id.json" >/dev/null || { cat "$WORK/advice-$id.json" >&2; exit 1; }
  answers+=("$(jq -r '.recommendation.quotaUs' "$WORK/advice-$id.json")")
  echo "$window" >>"$WORK/windows"
  jq -c '{answer: .recommendation.cpuMax, range: .observed.quotaUs, fitting: .observed.fitting,
          simulated: .observed.simulated}' "$WORK/advice-$id.json" >>"$WORK/advised"
done <"$WORK/observed"
kill "$pid"; wait "$pid" 2>/dev/null || true
pid=

checks=()
for q in "${answers[@]}"; do checks+=("$q" "$((q - 1000))"); done
echo "measuring at the answers and one step below (quiet machine)..." >&2
hold bash "$0" --check "${checks[@]}" >"$WORK/checked"

echo "round | observed at $QUOTA_US $PERIOD_US (throttled/periods, usage) | advised (range over fitting) |" \
  "kernel at the answer | kernel one step below"
i=0
while read -r window; do
  advised=$(sed -n "$((i + 1))p" "$WORK/advised")
  at=$(sed -n "$((2 * i + 1))p" "$WORK/checked")
  below=$(sed -n "$((2 * i + 2))p" "$WORK/checked")
  share() { jq -r '"\(.nrThrottled)/\(.nrPeriods) = \((100 * .nrThrottled / .nrPeriods * 10 | round) / 10) %"' <<<"$1"; }
  echo "$((i + 1)) | $(share "$window"), $(jq -r '.usageUsec / .windowMs / 1000 * 1000 | round / 1000' <<<"$window") CPUs |" \
    "$(jq -r '"\(.answer) (\(.range.min)..\(.range.max), \(.fitting) of \(.simulated) fit)"' <<<"$advised") |" \
    "$(share "$at") | $(share "$below")"
  i=$((i + 1))
done <"$WORK/windows"
