#!/usr/bin/env bash
# Bounded loopback load test (not run by CI): starts the service (H2 in a temp dir, or the database given by
# SPRING_DATASOURCE_URL with profile postgres when LT_POSTGRES=1), then LT_CLIENTS (50) concurrent clients
# submit small simulations (validation-2c, 200 ms) for LT_SECONDS (60) s. Prints submissions per second,
# p50/p99 submit latency and the count of 5xx. The queue limit is raised so that the submit path, not the
# back-pressure, is measured. LT_JAR runs another build's jar, LT_H2_OPTIONS gives it other H2 URL options (an
# older build's defaults). Stops the service on exit.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
CLIENTS=${LT_CLIENTS:-50}
SECONDS_=${LT_SECONDS:-60}
mkdir -p target
WORK=$(mktemp -d "${PWD}/target/load-test.XXXXXX")
PID=""
cleanup() {
  [[ -n "$PID" ]] && { kill "$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true; }
  rm -rf "$WORK"
}
trap cleanup EXIT
JAR=${LT_JAR:-$(service_jar)}
PORT=$(service_port 0)
java -Xmx768m -jar "$JAR" --server.port="$PORT" --logging.level.root=WARN --schedsim.max-queued=10000000 \
  --spring.datasource.url="jdbc:h2:file:$WORK/h2/schedsim${LT_H2_OPTIONS:-$(h2_options)}" >"$WORK/service.log" 2>&1 &
PID=$!
await_up "$PORT" 120 "$PID" || { tail -n 30 "$WORK/service.log"; exit 1; }
timeout $((SECONDS_ + 60)) java src/test/java/dev/schedsim/bench/LoadTest.java "http://127.0.0.1:$PORT" "$CLIENTS" "$SECONDS_"
echo "simulations by status after the run: $(for s in QUEUED RUNNING SUCCEEDED FAILED; do
  printf '%s %s ' "$s" "$(curl -fsS "http://127.0.0.1:$PORT/api/v1/simulations?size=1&status=$s" | jq -r .totalElements)"; done)"
