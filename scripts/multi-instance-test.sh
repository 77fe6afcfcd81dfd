#!/usr/bin/env bash
# Scale-out and crash safety, on real processes:
#  1. two service instances share a fresh PostgreSQL database (127.0.0.1:5432, user postgres, database
#     schedsim_mi, created and dropped here); 200 small simulations and a sweep of 40 runs are submitted to
#     both; one instance is killed with SIGKILL part way; all must end SUCCEEDED exactly once (one result each,
#     every run SUCCEEDED; runs of the killed instance are claimed again by the survivor after the heartbeat
#     timeout);
#  2. one instance on an H2 file under target/ with one simulation SUCCEEDED and others queued and running is
#     killed with SIGKILL right after one more submission is acknowledged, and restarted on the same file; none
#     is lost, and the one that had SUCCEEDED still is.
#  With MI_SECURITY=1 the same with security on: every instance has API keys (a submit key the submissions and
#  reads use, as X-API-Key and as Bearer, an admin key given as its {sha256} hash) and per-client limits high
#  enough for the run; a request without a key must be 401. Then two fresh instances on the same database with low
#  per-client limits (schedsim.security.max-queued-per-client=2, submissions-per-minute=6) show that both count
#  from the database: one client's 429s come from either instance, and another client still submits.
# MI_DB names the database (default schedsim_mi; created and dropped).
# Bounded: fails after MI_TIMEOUT seconds (default 300, 420 with MI_SECURITY=1). Cleans up its processes and database on exit.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

TOTAL=${MI_SIMULATIONS:-200}
# (security on starts two more instances: 420 s)
TIMEOUT=${MI_TIMEOUT:-$([[ "${MI_SECURITY:-0}" == 1 ]] && echo 420 || echo 300)}
PGHOST=127.0.0.1 PGPORT=5432 PGUSER=postgres
export PGHOST PGPORT PGUSER
DB=${MI_DB:-schedsim_mi}
SECURITY=${MI_SECURITY:-0}
AUTH=() SEC_ARGS=()
if [[ "$SECURITY" == 1 ]]; then
  SCHEDSIM_KEY="mi-submit-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
  ADMIN_KEY="mi-admin-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
  ADMIN_HASH=$(printf '%s' "$ADMIN_KEY" | sha256sum | cut -d' ' -f1)
  export SCHEDSIM_KEY
  AUTH=(-H "Authorization: Bearer $SCHEDSIM_KEY")
  SEC_ARGS=(--schedsim.security.api-keys="mi:$SCHEDSIM_KEY:submit,ops:{sha256}$ADMIN_HASH:admin")
fi
WORK=$(mktemp -d "${PWD}/target/multi-instance.XXXXXX")
PIDS=()
START=$(date +%s)
RUN_KEY="mi-$START-$$"

cleanup() {
  local pid
  for pid in "${PIDS[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  psql -q -d postgres -c "drop database if exists $DB" >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT

fail() {
  echo "multi-instance-test: FAIL — $*" >&2
  psql -d "$DB" -c "select status, count(*) from simulation group by status" \
    -c "select status, attempts, count(*) from simulation_run group by status, attempts" >&2 2>/dev/null || true
  for f in "$WORK"/*.log; do echo "--- tail of $f" >&2; tail -n 30 "$f" >&2 || true; done
  exit 1
}
remaining() { echo $((TIMEOUT - ($(date +%s) - START))); }
check_time() { (( $(remaining) > 0 )) || fail "not done within ${TIMEOUT}s"; }

pg_isready -q || fail "no PostgreSQL on $PGHOST:$PGPORT"
JAR=$(service_jar)

start_instance() { # name port extra-args… ; prints the pid
  local name=$1 port=$2
  shift 2
  java -Xmx384m -jar "$JAR" --server.port="$port" --schedsim.poll-interval=50ms \
    --logging.level.root=WARN --logging.level.dev.schedsim=INFO "${SEC_ARGS[@]}" "$@" >"$WORK/$name.log" 2>&1 &
  echo $!
}

submit_all() { # port… ; submits $TOTAL simulations round-robin to the ports, 8 at a time; ids to $WORK/ids.
  # Like a client behind a load balancer: when an instance does not answer, the same request goes to the next
  # one with the same Idempotency-Key, so a submission the dead instance had already stored is not duplicated.
  seq 1 "$TOTAL" | xargs -P 8 -I{} bash -c 'source scripts/lib.sh; submit_one "$0" {} "$@"' "$RUN_KEY" "$@" \
    >"$WORK/ids" || fail "a submission was not accepted"
  [[ $(sort -u "$WORK/ids" | wc -l) -eq $TOTAL ]] || fail "$(sort -u "$WORK/ids" | wc -l) of $TOTAL submissions accepted"
}

# ---------------------------------------------------------------- 1. two instances on PostgreSQL
psql -q -d postgres -c "drop database if exists $DB" >/dev/null
psql -q -d postgres -c "create database $DB" >/dev/null
PG_BASE=(--spring.profiles.active=postgres --spring.datasource.url="jdbc:postgresql://$PGHOST:$PGPORT/$DB"
  --spring.datasource.username=postgres --schedsim.recovery.heartbeat-timeout=5s)
PG_ARGS=("${PG_BASE[@]}" --schedsim.workers=2)
# Limits on, high enough for this run's one client: their database counts are on every submission's path.
[[ "$SECURITY" == 1 ]] && PG_ARGS+=(--schedsim.security.max-queued-per-client=5000
  --schedsim.security.submissions-per-minute=5000)
PORT_A=$(service_port 0)
PID_A=$(start_instance a "$PORT_A" "${PG_ARGS[@]}")
PIDS+=("$PID_A")
await_up "$PORT_A" 120 "$PID_A" || fail "instance a did not start"   # migrates the fresh database first
PORT_B=$(service_port 1)
PID_B=$(start_instance b "$PORT_B" "${PG_ARGS[@]}")
PIDS+=("$PID_B")
await_up "$PORT_B" 120 "$PID_B" || fail "instance b did not start"
echo "instances a (pid $PID_A, port $PORT_A) and b (pid $PID_B, port $PORT_B) up on database $DB" \
  "(security $([[ "$SECURITY" == 1 ]] && echo on || echo off))"
if [[ "$SECURITY" == 1 ]]; then
  code=$(curl -sS -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT_A/api/v1/simulations")
  [[ "$code" == 401 ]] || fail "security on: a request without a key got $code, not 401"
fi

q() { psql -d "$DB" -Atc "$1"; }
# One slower simulation is sure to be in flight on the instance that is killed: 300 s of 20 request-response
# pairs on 2 CPUs, about 17 M events, 4 s of engine time or more (20 s of it, at 0.5 s, finished before the kill).
SLOW='{"name":"slow","topology":{"preset":"validation-2c"},"workloads":[{"name":"rr","type":"request-response",
  "pairs":20,"serviceUs":20,"thinkUs":10}],"durationMs":300000}'
SLOW_ID=$(curl -fsS "${AUTH[@]}" -X POST -H 'Content-Type: application/json' --data-binary "$SLOW" \
  "http://127.0.0.1:$PORT_A/api/v1/simulations" | jq -r .id) || fail "the slow simulation was not accepted"
OWNER=""
while [[ -z "$OWNER" ]]; do
  check_time
  OWNER=$(q "select split_part(worker_id, '@', 1) from simulation_run where simulation_id = '$SLOW_ID'
             and status = 'RUNNING'")
  sleep 0.05
done
if [[ "$OWNER" == "$PID_A" ]]; then VICTIM=a VICTIM_PID=$PID_A PORTS=("$PORT_A" "$PORT_B") SURVIVOR=$PORT_B
else VICTIM=b VICTIM_PID=$PID_B PORTS=("$PORT_B" "$PORT_A") SURVIVOR=$PORT_A; fi
# A sweep too (2 variants x 20 repetitions of a short run): its runs are claimed in batches by the workers of
# both instances at once.
SWEEP='{"name":"sweep","topology":{"preset":"validation-2c"},"cgroups":[{"path":"/a","cpuMax":"50000 100000"}],
  "workloads":[{"name":"w","cgroup":"/a","type":"cpu-bound","threads":2}],"durationMs":300,"seed":7,
  "repetitions":20,"variants":[{"label":"6.1","kernel":{"profile":"6.1"}},{"label":"6.18","kernel":{"profile":"6.18"}}]}'
SWEEP_ID=$(curl -fsS "${AUTH[@]}" -X POST -H 'Content-Type: application/json' --data-binary "$SWEEP" \
  "http://127.0.0.1:$SURVIVOR/api/v1/simulations" | jq -r .id) || fail "the sweep was not accepted"
TOTAL=$((TOTAL - 1))
submit_all "${PORTS[@]}" &
SUBMITTER=$!
TOTAL=$((TOTAL + 1))
# Kill the instance running the slow simulation part way: once a tenth of the small ones are done.
KILL_AT=$((TOTAL / 10))
while (( $(q "select count(*) from simulation where status = 'SUCCEEDED'") < KILL_AT )); do
  check_time
  sleep 0.1
done
kill -9 "$VICTIM_PID"
while kill -0 "$VICTIM_PID" 2>/dev/null; do sleep 0.01; done
# Counted after the kill: the dead instance's runs stay RUNNING in its name until the reaper requeues them (a run
# counted before the kill could still have finished in between).
INFLIGHT=$(q "select count(*) from simulation_run where status = 'RUNNING' and worker_id like '${VICTIM_PID}@%'")
echo "SIGKILL to instance $VICTIM after $(q "select count(*) from simulation where status = 'SUCCEEDED'")" \
  "succeeded (it was running $INFLIGHT run(s)); submissions fail over to the other instance"
wait "$SUBMITTER" || fail "submissions failed"
echo "$SLOW_ID" >>"$WORK/ids"

TOTAL=$((TOTAL + 1)) # and the sweep
while :; do
  check_time
  done_n=$(q "select count(*) from simulation where status in ('SUCCEEDED','FAILED','CANCELLED')")
  (( done_n >= TOTAL )) && break
  sleep 0.5
done

SUCCEEDED=$(q "select count(*) from simulation s join simulation_result r on r.simulation_id = s.id
               where s.status = 'SUCCEEDED' and s.finished_at is not null")
RUNS=$(q "select count(*) from simulation_run")
RUNS_OK=$(q "select count(*) from simulation_run r join simulation_run_report p on p.run_id = r.id
             where r.status = 'SUCCEEDED'")
RECLAIMED=$(q "select count(*) from simulation_run where attempts > 1")
ATTEMPTS=$(q "select coalesce(sum(attempts), 0) from simulation_run")
OTHER=$(q "select count(*) from simulation where status <> 'SUCCEEDED'")
(( SUCCEEDED == TOTAL && OTHER == 0 )) || fail "$SUCCEEDED of $TOTAL SUCCEEDED with a result, $OTHER not"
(( RUNS == TOTAL + 39 && RUNS_OK == RUNS )) || fail "$RUNS_OK of $RUNS runs SUCCEEDED (expected $((TOTAL + 39)))"
# The killed instance's runs (the slow one at least) were claimed again by the survivor.
(( INFLIGHT >= 1 )) || fail "the killed instance was running no run (the slow simulation ended before the kill)"
(( RECLAIMED >= INFLIGHT )) || fail "$RECLAIMED run(s) re-claimed, $INFLIGHT were in flight on the killed instance"
# Through the API of the survivor: every submitted id is SUCCEEDED with a result.
while read -r id; do
  s=$(curl -fsS "${AUTH[@]}" "http://127.0.0.1:$SURVIVOR/api/v1/simulations/$id" | jq -r '.status + " " + (.result.variants | length | tostring)')
  [[ "$s" == "SUCCEEDED 1" ]] || fail "simulation $id reads '$s' on the surviving instance"
done <"$WORK/ids"
s=$(curl -fsS "${AUTH[@]}" "http://127.0.0.1:$SURVIVOR/api/v1/simulations/$SWEEP_ID" | jq -r '.status + " " + ([.result.variants[].runs | length] | map(tostring) | join(","))')
[[ "$s" == "SUCCEEDED 20,20" ]] || fail "the sweep reads '$s' on the surviving instance"
ELAPSED1=$(( $(date +%s) - START ))
SWEEP_WORKERS=$(q "select count(distinct split_part(worker_id, '@', 1)) from simulation_run where simulation_id = '$SWEEP_ID'")
echo "postgres: $SUCCEEDED/$TOTAL SUCCEEDED once with one result (the sweep's 40 runs by $SWEEP_WORKERS instance(s));" \
  "$RUNS_OK/$RUNS runs SUCCEEDED;" \
  "$ATTEMPTS attempts, $RECLAIMED run(s) re-claimed after the SIGKILL; ${ELAPSED1}s"
kill -9 "$PID_A" "$PID_B" 2>/dev/null || true

# ---------------------------------------------------------------- 1b. security on: per-client limits, two instances
if [[ "$SECURITY" == 1 ]]; then
  # Two more clients; limits low enough to reach. Each instance has one worker: two of burst's slow simulations
  # run, what it submits next queues.
  BURST_KEY="mi-burst-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
  OTHER_KEY="mi-other-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
  # (a property given twice on the command line is joined into a list: these replace the keys and limits above)
  SEC_ARGS=(--schedsim.security.api-keys="burst:$BURST_KEY:submit,other:$OTHER_KEY:submit,ops:{sha256}$ADMIN_HASH:admin")
  LIMIT_ARGS=("${PG_BASE[@]}" --schedsim.workers=1 --schedsim.warmup=0s
    --schedsim.security.max-queued-per-client=2 --schedsim.security.submissions-per-minute=6)
  PORT_E=$(service_port 3)
  PID_E=$(start_instance e "$PORT_E" "${LIMIT_ARGS[@]}")
  PIDS+=("$PID_E")
  PORT_F=$(service_port 4)
  PID_F=$(start_instance f "$PORT_F" "${LIMIT_ARGS[@]}")
  PIDS+=("$PID_F")
  await_up "$PORT_E" 120 "$PID_E" || fail "instance e did not start"
  await_up "$PORT_F" 120 "$PID_F" || fail "instance f did not start"
  post_as() { # key port ; POSTs the slow simulation, prints "status id-or-limit"
    curl -sS -X POST -H 'Content-Type: application/json' -H "Authorization: Bearer $1" --data-binary "$SLOW" \
      -w ' %{http_code}' "http://127.0.0.1:$2/api/v1/simulations" | jq -Rr 'split(" ") as $p |
        ($p[-1]) + " " + (($p[:-1] | join(" ") | fromjson) | (.id // .limit // "?"))'
  }
  BURST_IDS=()
  accept_as() { # key port ; the submission must be accepted
    local r
    r=$(post_as "$1" "$2")
    [[ "$r" == 202\ * ]] || fail "limits: a submission under the limits to port $2 got $r"
    BURST_IDS+=("${r#202 }")
  }
  refuse_as() { # key port limit ; the submission must be a 429 naming the limit
    local r
    r=$(post_as "$1" "$2")
    [[ "$r" == "429 $3" ]] || fail "limits: expected 429 $3 from port $2, got $r"
  }
  accept_as "$BURST_KEY" "$PORT_E"
  accept_as "$BURST_KEY" "$PORT_F"
  until (( $(q "select count(*) from simulation_run r join simulation s on s.id = r.simulation_id
               where s.owner = 'burst' and r.status = 'RUNNING'") == 2 )); do check_time; sleep 0.05; done
  accept_as "$BURST_KEY" "$PORT_E"
  accept_as "$BURST_KEY" "$PORT_F"
  # Two queued, one on each instance's word: a third is over the client's queue on either instance.
  refuse_as "$BURST_KEY" "$PORT_E" schedsim.security.max-queued-per-client
  refuse_as "$BURST_KEY" "$PORT_F" schedsim.security.max-queued-per-client
  accept_as "$OTHER_KEY" "$PORT_E"
  for id in "${BURST_IDS[@]:2:2}"; do
    curl -fsS -o /dev/null -X POST -H "Authorization: Bearer $BURST_KEY" \
      "http://127.0.0.1:$PORT_F/api/v1/simulations/$id/cancel" || fail "limits: cancel $id"
  done
  accept_as "$BURST_KEY" "$PORT_F"
  accept_as "$BURST_KEY" "$PORT_E"
  # Six submissions by burst within the minute, three to each instance: the seventh is over its rate on both.
  refuse_as "$BURST_KEY" "$PORT_E" schedsim.security.submissions-per-minute
  refuse_as "$BURST_KEY" "$PORT_F" schedsim.security.submissions-per-minute
  accept_as "$OTHER_KEY" "$PORT_F"
  for id in "${BURST_IDS[@]}"; do
    curl -sS -o /dev/null -X POST -H "Authorization: Bearer $ADMIN_KEY" \
      "http://127.0.0.1:$PORT_E/api/v1/simulations/$id/cancel" || true
  done
  echo "limits: burst got 429 max-queued-per-client and then submissions-per-minute from both instances," \
    "other submitted on both meanwhile"
  kill -9 "$PID_E" "$PID_F" 2>/dev/null || true
  SEC_ARGS=(--schedsim.security.api-keys="mi:$SCHEDSIM_KEY:submit,ops:{sha256}$ADMIN_HASH:admin")
fi

# ---------------------------------------------------------------- 2. one instance on H2, kill -9, restart
H2_ARGS=(--spring.datasource.url="jdbc:h2:file:$WORK/h2/schedsim$(h2_options)"
  --schedsim.workers=1)
H2_TOTAL=$((TOTAL / 4))
PORT_C=$(service_port 2)
PID_C=$(start_instance c "$PORT_C" "${H2_ARGS[@]}")
PIDS+=("$PID_C")
await_up "$PORT_C" 120 "$PID_C" || fail "instance c (H2) did not start"
# One small simulation first, run to the end: the kill must not undo an end a client was told of.
FIRST_ID=$(submit_one "$RUN_KEY-h2-first" 0 "$PORT_C") || fail "H2: the first simulation was not accepted"
until [[ $(curl -fsS "${AUTH[@]}" "http://127.0.0.1:$PORT_C/api/v1/simulations/$FIRST_ID" | jq -r .status) == SUCCEEDED ]]; do
  check_time
  sleep 0.05
done
# The slower simulation (above: 4 s of engine time or more) keeps the only worker busy, the small ones queue
# behind it.
SLOW_ID=$(curl -fsS "${AUTH[@]}" -X POST -H 'Content-Type: application/json' --data-binary "$SLOW" \
  "http://127.0.0.1:$PORT_C/api/v1/simulations" | jq -r .id) || fail "H2: the slow simulation was not accepted"
TOTAL_SAVED=$TOTAL
TOTAL=$((H2_TOTAL - 3)) RUN_KEY="$RUN_KEY-h2"
submit_all "$PORT_C"
TOTAL=$TOTAL_SAVED
echo "$SLOW_ID" >>"$WORK/ids"
echo "$FIRST_ID" >>"$WORK/ids"
view() { curl -fsS "${AUTH[@]}" "http://127.0.0.1:$1/api/v1/simulations?size=100&status=$2" | jq -r .totalElements; }
while (( $(view "$PORT_C" RUNNING) < 1 )); do check_time; sleep 0.05; done
BEFORE="$(view "$PORT_C" QUEUED) queued, $(view "$PORT_C" RUNNING) running, $(view "$PORT_C" SUCCEEDED) succeeded"
curl -fsS "${AUTH[@]}" "http://127.0.0.1:$PORT_C/api/v1/simulations?size=100&status=SUCCEEDED" | jq -r '.content[].id' \
  >"$WORK/h2-done" || true
# One more submission, and the kill as soon as it is acknowledged: H2 writes commits to its file within its
# write delay, so only the CHECKPOINT before the 202 keeps this one.
LAST_ID=$(submit_one "$RUN_KEY-h2-last" 0 "$PORT_C") || fail "H2: the last simulation was not accepted"
kill -9 "$PID_C"
wait "$PID_C" 2>/dev/null || true
echo "SIGKILL to the H2 instance with $BEFORE; restarting on the same database file"
PID_D=$(start_instance d "$PORT_C" "${H2_ARGS[@]}")
PIDS+=("$PID_D")
await_up "$PORT_C" 120 "$PID_D" || fail "the H2 instance did not restart"
[[ $(curl -fsS "${AUTH[@]}" "http://127.0.0.1:$PORT_C/api/v1/simulations?size=1" | jq -r .totalElements) == "$H2_TOTAL" ]] \
  || fail "H2: simulations lost by the kill -9"
echo "$LAST_ID" >>"$WORK/ids"
# What had ended before the kill (acknowledged to clients) reads the same after it.
grep -qx "$FIRST_ID" "$WORK/h2-done" || fail "H2: the first simulation was not listed as SUCCEEDED before the kill"
while read -r id; do
  s=$(curl -fsS "${AUTH[@]}" "http://127.0.0.1:$PORT_C/api/v1/simulations/$id" | jq -r .status)
  [[ "$s" == SUCCEEDED ]] || fail "H2: simulation $id SUCCEEDED before the kill -9 and is $s after it"
done <"$WORK/h2-done"
while (( $(view "$PORT_C" SUCCEEDED) < H2_TOTAL )); do
  check_time
  (( $(view "$PORT_C" FAILED) + $(view "$PORT_C" CANCELLED) == 0 )) || fail "H2: a simulation did not succeed"
  sleep 0.25
done
while read -r id; do
  s=$(curl -fsS "${AUTH[@]}" "http://127.0.0.1:$PORT_C/api/v1/simulations/$id" | jq -r .status)
  [[ "$s" == SUCCEEDED ]] || fail "H2: simulation $id is $s after the restart"
done <"$WORK/ids"
echo "h2: $H2_TOTAL/$H2_TOTAL SUCCEEDED after kill -9 and restart"
echo "multi-instance-test: PASS (security $([[ "$SECURITY" == 1 ]] && echo "on, limits checked" || echo off)) — postgres $TOTAL/$TOTAL SUCCEEDED once across 2 instances with one SIGKILLed" \
  "($RECLAIMED run(s) re-claimed), h2 $H2_TOTAL/$H2_TOTAL after kill -9 + restart, $(( $(date +%s) - START ))s"
