#!/usr/bin/env bash
# The cAdvisor-named download against a real Prometheus: starts the service (H2 in a temp dir), runs the Swagger
# example pod (a Burstable pod whose "web" container is throttled at its 500m limit), downloads
# GET /api/v1/simulations/{id}/metrics?start=..., imports it with promtool tsdb create-blocks-from openmetrics,
# opens the blocks with Debian's prometheus (installed with apt-get when missing) and evaluates the
# CPUThrottlingHigh ratio sum(increase(throttled_periods[5m])) / sum(increase(periods[5m])) by container: it must
# equal nr_throttled / nr_periods of the result's cpu.stat, and the imported counter its nr_throttled. Kills what it
# started on exit. Ports: the service on $SCHEDSIM_PORT and Prometheus on the next one when it is set, else free ones.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

mkdir -p target
WORK=$(mktemp -d "${PWD}/target/openmetrics-check.XXXXXX")
PIDS=()
cleanup() {
  local pid
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT
fail() {
  echo "openmetrics-import-check: FAIL — $*" >&2
  for f in "$WORK"/*.log; do echo "--- tail of $f" >&2; tail -n 20 "$f" >&2 || true; done
  exit 1
}
if ! command -v promtool >/dev/null 2>&1; then
  echo "installing Debian's prometheus package..."
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq prometheus) >"$WORK/apt.log" 2>&1 \
    || fail "could not install prometheus"
fi
command -v jq >/dev/null 2>&1 || fail "jq is needed"

JAR=$(service_jar)
PORT=$(service_port 0)
java -Xmx384m -jar "$JAR" --server.port="$PORT" --logging.level.root=WARN \
  --spring.datasource.url="jdbc:h2:file:$WORK/h2/schedsim;AUTO_SERVER=FALSE" >"$WORK/service.log" 2>&1 &
PIDS+=($!)
await_up "$PORT" 120 "${PIDS[0]}" || fail "the service did not start"

# The kubernetes-pod example of Swagger UI, as shipped (ApiExamples.KUBERNETES).
BODY=$(sed -n '/KUBERNETES = """/,/""";/p' src/main/java/dev/schedsim/api/ApiExamples.java | sed -e '1d' -e 's/""";$//')
ID=$(curl -fsS -X POST -H 'Content-Type: application/json' --data-binary "$BODY" \
  "http://127.0.0.1:$PORT/api/v1/simulations" | jq -r .id) || fail "the example pod was not accepted"
for _ in $(seq 600); do
  STATUS=$(curl -fsS "http://127.0.0.1:$PORT/api/v1/simulations/$ID" | jq -r .status)
  [[ "$STATUS" == SUCCEEDED || "$STATUS" == FAILED ]] && break
  sleep 0.2
done
[[ "$STATUS" == SUCCEEDED ]] || fail "simulation $ID is $STATUS"
STAT=$(curl -fsS "http://127.0.0.1:$PORT/api/v1/simulations/$ID/result" \
  | jq -c '.variants[0].cgroups[] | select(.path | endswith("/web")) | .cpuStat')
START=1767225600
curl -fsS "http://127.0.0.1:$PORT/api/v1/simulations/$ID/metrics?start=$START" >"$WORK/metrics.om" \
  || fail "no metrics download"
promtool tsdb create-blocks-from openmetrics "$WORK/metrics.om" "$WORK/tsdb" >"$WORK/promtool.log" 2>&1 \
  || fail "promtool did not import the download"

PPORT=$(service_port 1)   # Prometheus: SCHEDSIM_PORT + 1 when set, else a free port
echo 'global: {}' >"$WORK/prometheus.yml"
prometheus --config.file="$WORK/prometheus.yml" --storage.tsdb.path="$WORK/tsdb" \
  --web.listen-address="127.0.0.1:$PPORT" >"$WORK/prometheus.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 60); do curl -fsS "http://127.0.0.1:$PPORT/-/ready" >/dev/null 2>&1 && break; sleep 0.5; done
query() {
  curl -fsS --get --data-urlencode "query=$1" --data-urlencode "time=$((START + 2))" \
    "http://127.0.0.1:$PPORT/api/v1/query" | jq -r '.data.result[0].value[1] // empty'
}
RATIO=$(query 'sum by (container) (increase(container_cpu_cfs_throttled_periods_total{container="web"}[5m]))
  / sum by (container) (increase(container_cpu_cfs_periods_total{container="web"}[5m]))')
THROTTLED=$(query 'container_cpu_cfs_throttled_periods_total{container="web"}')
WANT=$(jq -n "$STAT | .nrThrottled / .nrPeriods")
echo "cpu.stat of web: $STAT; imported nr_throttled $THROTTLED; CPUThrottlingHigh ratio $RATIO (cpu.stat: $WANT)"
[[ "$THROTTLED" == "$(jq -n "$STAT | .nrThrottled")" ]] || fail "imported counter $THROTTLED, cpu.stat $STAT"
awk -v a="$RATIO" -v b="$WANT" 'BEGIN { exit !(a != "" && (a - b < 1e-9 && b - a < 1e-9)) }' \
  || fail "ratio $RATIO, cpu.stat's $WANT"
echo "openmetrics-import-check: PASS"
