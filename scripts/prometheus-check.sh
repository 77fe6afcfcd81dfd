#!/usr/bin/env bash
# The shipped Grafana dashboard against a real Prometheus: starts the service (H2 in a temp dir) and Debian's
# prometheus (installed with apt-get when missing) scraping it every 2 s, submits a few simulations (with a
# cgroup quota so the throttling gauges exist, a finite workload for completion, a sleeping one for wakeup
# latency), waits for scrapes, then evaluates EVERY PromQL expression of ops/grafana/dashboards/schedsim.json
# ($simulation -> .*, $__rate_interval -> 1m; label_values(m, l) as count by (l) (m)) through Prometheus' HTTP
# API and fails if any returns no data (an empty result, or only NaN). Kills what it started on exit.
# Ports: the service on $SCHEDSIM_PORT and Prometheus on the next one when it is set, else free ones.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

DASHBOARD=ops/grafana/dashboards/schedsim.json
TIMEOUT=${PC_TIMEOUT:-240}
START=$(date +%s)
mkdir -p target
WORK=$(mktemp -d "${PWD}/target/prometheus-check.XXXXXX")
PIDS=()
cleanup() {
  local pid
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT
fail() {
  echo "prometheus-check: FAIL — $*" >&2
  for f in "$WORK"/*.log; do echo "--- tail of $f" >&2; tail -n 20 "$f" >&2 || true; done
  exit 1
}
check_time() { (( $(date +%s) - START < TIMEOUT )) || fail "not done within ${TIMEOUT}s"; }

if ! command -v prometheus >/dev/null 2>&1; then
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

PPORT=$(service_port 1)   # Prometheus: SCHEDSIM_PORT + 1 when set, else a free port
sed -e 's/scrape_interval: .*/scrape_interval: 2s/' -e 's/evaluation_interval: .*/evaluation_interval: 2s/' \
  -e "s/127.0.0.1:8080/127.0.0.1:$PORT/" ops/prometheus/prometheus-local.yml >"$WORK/prometheus.yml"
grep -q "127.0.0.1:$PORT" "$WORK/prometheus.yml" || fail "could not point ops/prometheus/prometheus-local.yml at the service"
prometheus --config.file="$WORK/prometheus.yml" --storage.tsdb.path="$WORK/tsdb" \
  --web.listen-address="127.0.0.1:$PPORT" >"$WORK/prometheus.log" 2>&1 &
PIDS+=($!)
PROM="http://127.0.0.1:$PPORT"
query() { curl -fsS --get --data-urlencode "query=$1" "$PROM/api/v1/query"; }
# The first scrape gives the counters their baseline, so the rates after the simulations are positive.
until [[ "$(query 'up{job="schedsim"}' 2>/dev/null | jq -r '.data.result[0].value[1] // empty')" == 1 ]]; do
  check_time
  kill -0 "${PIDS[1]}" 2>/dev/null || fail "prometheus exited"
  sleep 0.5
done
echo "prometheus (pid ${PIDS[1]}, $PROM) scrapes the service on port $PORT every 2 s"

SIM='{"name":"NAME","topology":{"preset":"validation-2c"},
  "cgroups":[{"path":"/limited","cpuMax":"50000 100000"},{"path":"/free"}],
  "workloads":[{"name":"batch","cgroup":"/limited","type":"cpu-bound","threads":2,"workUs":60000},
               {"name":"ticker","cgroup":"/free","type":"periodic","threads":2,"runUs":1000,"sleepUs":4000}],
  "durationMs":1000,"seed":SEED}'
IDS=()
for i in 1 2 3 4; do
  IDS+=("$(curl -fsS -X POST -H 'Content-Type: application/json' \
    --data-binary "$(echo "$SIM" | sed -e "s/NAME/prom-check-$i/" -e "s/SEED/$i/")" \
    "http://127.0.0.1:$PORT/api/v1/simulations" | jq -r .id)")
done
for id in "${IDS[@]}"; do
  until [[ "$(curl -fsS "http://127.0.0.1:$PORT/api/v1/simulations/$id" | jq -r .status)" == SUCCEEDED ]]; do
    check_time
    sleep 0.25
  done
done
sleep 7   # three more scrapes

jq -r '[.. | objects | .expr? // empty] + [.templating.list[]?.query | if type == "object" then .query else . end
       | select(. != null and . != "")] | .[]' "$DASHBOARD" >"$WORK/exprs"
TOTAL=0
EMPTY=0
while IFS= read -r expr; do
  q=${expr//\$__rate_interval/1m}
  q=${q//\$simulation/.*}
  q=${q//\$\{simulation\}/.*}
  if [[ "$q" =~ ^label_values\(([^,]+),[[:space:]]*([A-Za-z_]+)\)$ ]]; then
    q="count by (${BASH_REMATCH[2]}) (${BASH_REMATCH[1]})"
  fi
  TOTAL=$((TOTAL + 1))
  answer=$(query "$q") || { echo "  ERROR  $q"; EMPTY=$((EMPTY + 1)); continue; }
  n=$(echo "$answer" | jq '[.data.result[] | .value[1] | select(. != "NaN")] | length')
  if (( n > 0 )); then
    printf '  ok %3d series  %s\n' "$n" "$q"
  else
    printf '  NO DATA        %s\n' "$q"
    EMPTY=$((EMPTY + 1))
  fi
done <"$WORK/exprs"
(( TOTAL > 0 )) || fail "no expressions found in $DASHBOARD"
(( EMPTY == 0 )) || fail "$EMPTY of $TOTAL dashboard expressions returned no data"
echo "prometheus-check: PASS — all $TOTAL PromQL expressions of $DASHBOARD return data ($(( $(date +%s) - START ))s)"
