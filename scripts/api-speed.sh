#!/usr/bin/env bash
# API speed benchmark (not run by CI): starts the service (H2 in a temp dir), then runs
# src/test/java/dev/schedsim/bench/ApiSpeed.java against it: the real-time factor of the 2-CPU validation cases
# through the API (simulated time / the job's startedAt→finishedAt), and the cores a simulation of 2 variants ×
# 4 repetitions keeps busy. AS_JOBS (40) jobs per case (0: none measured, after the 20 warm-up jobs). AS_SWEEPS
# (1) sweeps of 320 runs in a row, each with the H2 database's size after it. AS_BURST (200) validation jobs
# submitted at once last: jobs per second and the service's CPU per job (a sweep as separate jobs); 0 skips it.
# Side by side: AS_JARS="old.jar new.jar" starts one service per jar and measures them in turns, AS_ROUNDS (1)
# rounds, so that both see the same machine; an entry JAR=OPTIONS gives that jar its own H2 URL options (default:
# those of application.properties, or AS_H2_OPTIONS). AS_SETTLE (0) seconds to wait once the services are up before the
# first job: 0 measures a cold service, 25 one that had its start-up JIT warm-up (schedsim.warmup, 15 s of CPU).
# AS_BIG (3) jobs of the 256-CPU case (BenchSpecs.epyc64Groups, 1 s) after one warm-up job: their real-time
# factors (0 skips them). AS_CORES=0 skips the cores check (a 64-CPU simulation of 8 runs, before the sweeps). Stops the services on exit.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
JOBS=${AS_JOBS:-40}
ROUNDS=${AS_ROUNDS:-1}
JARS=${AS_JARS:-$(service_jar)}
# The default H2 URL's options (application.properties), so that the jobs pay what they pay by default.
H2_OPTIONS=${AS_H2_OPTIONS:-$(h2_options)}
mkdir -p target
WORK=$(mktemp -d "${PWD}/target/api-speed.XXXXXX")
PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT
PORTS=()
i=0
for SPEC in $JARS; do
  # JAR=OPTIONS runs that jar with its own H2 URL options (an older build's defaults, say).
  JAR=${SPEC%%=*} OPTIONS=$H2_OPTIONS
  [[ "$SPEC" == *=* ]] && OPTIONS=${SPEC#*=}
  PORT=$(service_port "$i")
  java -Xmx1g -jar "$JAR" --server.port="$PORT" --logging.level.root=WARN \
    --spring.datasource.url="jdbc:h2:file:$WORK/h2-$i/schedsim$OPTIONS" >"$WORK/service-$i.log" 2>&1 &
  PIDS+=($!)
  await_up "$PORT" 120 "$!" || { tail -n 30 "$WORK/service-$i.log"; exit 1; }
  PORTS+=("$PORT")
  i=$((i + 1))
done
if [[ "${AS_SETTLE:-0}" != 0 ]]; then
  echo "waiting ${AS_SETTLE} s for the start-up warm-up"
  sleep "$AS_SETTLE"
fi
for r in $(seq 1 "$ROUNDS"); do
  i=0
  for SPEC in $JARS; do
    echo "== round $r: $SPEC"
    java src/test/java/dev/schedsim/bench/ApiSpeed.java "http://127.0.0.1:${PORTS[$i]}" "${PIDS[$i]}" "$JOBS" \
      "${AS_BURST:-200}" "${AS_SWEEPS:-1}" "$WORK/h2-$i"
    i=$((i + 1))
  done
done
