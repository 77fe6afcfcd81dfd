#!/usr/bin/env bash
# Faults without loss, on real processes and the local PostgreSQL (127.0.0.1:5432, user postgres, its cluster
# stopped and started here with pg_ctlcluster):
#  1. two instances share a fresh database (schedsim_ft); a long simulation and a queue of small ones are
#     submitted; PostgreSQL is stopped for FT_OUTAGES seconds each (default "20 45") and started again. Measured
#     per outage: how long /actuator/health/readiness took to say DOWN and, after the start, UP; what clients got
#     meanwhile (a POST and a GET every half second: statuses and the slowest answer). Then every accepted
#     simulation must be SUCCEEDED exactly once with one result, and none FAILED.
#  2. SIGTERM, on each database kind (H2 file, PostgreSQL): a running simulation and queued ones; the instance
#     stops gracefully (schedsim.shutdown-grace=2s: the run does not finish in it and is requeued), requests
#     during the stop get no 500, and after a restart everything SUCCEEDS.
#  3. H2 on a small tmpfs (needs mount): the disk is filled, submissions are refused (503, no 500) and readiness
#     says DOWN; the filler is removed, and without a restart readiness is UP again, submissions are accepted and
#     every simulation SUCCEEDS.
# Bounded: fails after FT_TIMEOUT seconds (default 600). Cleans up its processes and database on exit, and
# leaves PostgreSQL running.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

TIMEOUT=${FT_TIMEOUT:-600}
OUTAGES=${FT_OUTAGES:-"20 45"}
SMALL=${FT_SMALL:-12}
PGHOST=127.0.0.1 PGPORT=5432 PGUSER=postgres
export PGHOST PGPORT PGUSER
DB=schedsim_ft
WORK=$(mktemp -d "${PWD}/target/fault-test.XXXXXX")
PIDS=()
START=$(date +%s)
CLUSTER=$(ls /etc/postgresql 2>/dev/null | head -n1 || true)

pg_start() {
  pg_ctlcluster --skip-systemctl-redirect "$CLUSTER" main start >/dev/null 2>&1 || true
  for _ in $(seq 1 60); do pg_isready -q && return 0; sleep 0.5; done
  return 1
}
MOUNTED=""
cleanup() {
  local pid
  for pid in "${PIDS[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  [[ -n "$MOUNTED" ]] && umount "$MOUNTED" 2>/dev/null || true
  pg_isready -q || pg_start || true
  psql -q -d postgres -c "drop database if exists $DB" >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT
fail() {
  echo "fault-test: FAIL — $*" >&2
  mkdir -p target/fault-test-logs && cp "$WORK"/*.log target/fault-test-logs/ 2>/dev/null || true
  echo "(the instances' logs are kept in target/fault-test-logs)" >&2
  psql -d "$DB" -c "select status, count(*) from simulation group by status" \
    -c "select name, left(error_json, 300) from simulation where status = 'FAILED'" >&2 2>/dev/null || true
  for f in "$WORK"/*.log; do
    echo "--- $f: its warnings and errors (first lines)" >&2
    grep -E " (WARN|ERROR) " "$f" | grep -v "failed to poll\|SpringDoc" | cut -c1-400 | head -n 30 >&2 || true
  done
  exit 1
}
# The instances are not this shell's children (started in a command substitution): wait for them by pid.
await_exit() { for _ in $(seq 1 600); do kill -0 "$1" 2>/dev/null || return 0; sleep 0.1; done; return 1; }
check_time() { (( $(date +%s) - START < TIMEOUT )) || fail "not done within ${TIMEOUT}s"; }

[[ -n "$CLUSTER" ]] && command -v pg_ctlcluster >/dev/null || fail "needs a local PostgreSQL cluster (pg_ctlcluster)"
pg_isready -q || pg_start || fail "no PostgreSQL on $PGHOST:$PGPORT"
JAR=$(service_jar)

start_instance() { # name port extra-args… ; prints the pid
  local name=$1 port=$2
  shift 2
  java -Xmx384m -jar "$JAR" --server.port="$port" --schedsim.poll-interval=50ms --schedsim.warmup=0s \
    --logging.level.root=WARN --logging.level.dev.schedsim=INFO "$@" >>"$WORK/$name.log" 2>&1 &
  echo $!
}
post() { # port body → "status id"
  local out code
  out=$(mktemp)
  code=$(curl -sS -o "$out" -w '%{http_code}' -m 30 -X POST -H 'Content-Type: application/json' \
    --data-binary "$2" "http://127.0.0.1:$1/api/v1/simulations" 2>/dev/null) || code=000
  echo "$code $(jq -r '.id // empty' "$out" 2>/dev/null)"
  rm -f "$out"
}
small() { small_simulation "$1" "$2"; }
# About a minute of engine time on one worker: long enough to be running through an outage.
LONG='{"name":"long","topology":{"preset":"validation-2c"},"workloads":[{"name":"rr","type":"request-response",
  "pairs":100,"serviceUs":20,"thinkUs":10}],"durationMs":600000}'

status_counts() { psql -d "$1" -Atc "select status || ':' || count(*) from simulation group by status order by 1" \
  | tr '\n' ' '; }

# FT_ONLY=disk runs part 3 alone. Each later instance takes the next port after part 1's two.
NEXT_PORT=1
if [[ "${FT_ONLY:-}" != disk ]]; then
# ---------------------------------------------------------------- 1. PostgreSQL outages under two instances
psql -q -d postgres -c "drop database if exists $DB" >/dev/null
psql -q -d postgres -c "create database $DB" >/dev/null
PG_ARGS=(--spring.profiles.active=postgres --spring.datasource.url="jdbc:postgresql://$PGHOST:$PGPORT/$DB"
  --spring.datasource.username=postgres)
PORT_A=$(service_port 0)
PID_A=$(start_instance a "$PORT_A" --schedsim.workers=1 "${PG_ARGS[@]}"); PIDS+=("$PID_A")
await_up "$PORT_A" 120 "$PID_A" || fail "instance a did not start"
PORT_B=$(service_port 1)
PID_B=$(start_instance b "$PORT_B" --schedsim.workers=1 "${PG_ARGS[@]}"); PIDS+=("$PID_B")
await_up "$PORT_B" 120 "$PID_B" || fail "instance b did not start"
: >"$WORK/ids"
read -r code id <<<"$(post "$PORT_A" "$LONG")"
[[ "$code" == 202 ]] || fail "the long simulation was not accepted ($code)"
echo "$id" >>"$WORK/ids"
round=0
for outage in $OUTAGES; do
  round=$((round + 1))
  for n in $(seq 1 "$SMALL"); do
    read -r code id <<<"$(post "$PORT_B" "$(small "r$round-$n" "$n")")"
    [[ "$code" == 202 ]] || fail "small simulation $n was not accepted ($code)"
    echo "$id" >>"$WORK/ids"
  done
  sleep 2
  # Clients during the outage: a POST and a GET of the list every half second, on instance b.
  (
    while :; do
      t0=$(date +%s%N)
      p=$(curl -s -o /dev/null -w '%{http_code}' -m 30 -X POST -H 'Content-Type: application/json' \
        --data-binary "$(small probe 1)" "http://127.0.0.1:$PORT_B/api/v1/simulations" || echo 000)
      g=$(curl -s -o /dev/null -w '%{http_code}' -m 30 "http://127.0.0.1:$PORT_B/api/v1/simulations?size=1" || echo 000)
      echo "$p $g $((($(date +%s%N) - t0) / 1000000))"
      sleep 0.5
    done
  ) >"$WORK/clients-$round" 2>/dev/null &
  CLIENTS=$!
  t_stop=$(date +%s%N)
  pg_ctlcluster --skip-systemctl-redirect "$CLUSTER" main stop -m fast >/dev/null
  down_ms=""
  while [[ -z "$down_ms" ]]; do
    r=$(curl -s -m 5 "http://127.0.0.1:$PORT_A/actuator/health/readiness" | jq -r .status 2>/dev/null || true)
    [[ "$r" == "DOWN" || "$r" == "OUT_OF_SERVICE" ]] && down_ms=$((($(date +%s%N) - t_stop) / 1000000))
    (( ($(date +%s%N) - t_stop) / 1000000000 > outage )) && down_ms="never"
    sleep 0.2
  done
  sleep_left=$(( outage - ($(date +%s%N) - t_stop) / 1000000000 ))
  (( sleep_left > 0 )) && sleep "$sleep_left"
  t_start=$(date +%s%N)
  pg_start || fail "PostgreSQL did not start again"
  up_ms=""
  while [[ -z "$up_ms" ]]; do
    r=$(curl -s -m 5 "http://127.0.0.1:$PORT_A/actuator/health/readiness" | jq -r .status 2>/dev/null || true)
    [[ "$r" == "UP" ]] && up_ms=$((($(date +%s%N) - t_start) / 1000000))
    check_time
    sleep 0.2
  done
  kill "$CLIENTS" 2>/dev/null || true; wait "$CLIENTS" 2>/dev/null || true
  # Probes that were accepted count as submissions too.
  codes=$(awk '{print "POST " $1 ", GET " $2}' "$WORK/clients-$round" | sort | uniq -c | sed 's/^ *//' | tr '\n' ';')
  slowest=$(awk '$3 > m {m = $3} END {print m + 0}' "$WORK/clients-$round")
  echo "outage $round: PostgreSQL stopped ${outage}s; readiness DOWN after ${down_ms} ms, UP ${up_ms} ms after" \
    "the start; clients: $codes slowest answer ${slowest} ms"
  grep -q "^500\|^[0-9]* 500" "$WORK/clients-$round" && fail "a client got 500 during outage $round"
done
probes=$(psql -d "$DB" -Atc "select count(*) from simulation where name = 'probe'")
expected=$(( $(wc -l <"$WORK/ids") + probes ))
while :; do
  check_time
  finished=$(psql -d "$DB" -Atc "select count(*) from simulation where status in ('SUCCEEDED','FAILED','CANCELLED')")
  (( finished >= expected )) && break
  sleep 1
done
ok=$(psql -d "$DB" -Atc "select count(*) from simulation s join simulation_result r on r.simulation_id = s.id
                          where s.status = 'SUCCEEDED'")
total=$(psql -d "$DB" -Atc "select count(*) from simulation")
(( ok == total && total == expected )) || fail "$ok of $total simulations SUCCEEDED with one result ($expected expected): $(status_counts "$DB")"
while read -r id; do
  s=$(curl -fsS "http://127.0.0.1:$PORT_A/api/v1/simulations/$id" | jq -r .status)
  [[ "$s" == SUCCEEDED ]] || fail "simulation $id is $s"
done <"$WORK/ids"
restarts=$(psql -d "$DB" -Atc "select coalesce(sum(attempts - 1), 0) from simulation_run")
echo "postgres outages: all $total simulations SUCCEEDED once ($probes accepted during the outages);" \
  "$restarts run restart(s)"
kill "$PID_A" "$PID_B"; await_exit "$PID_A"; await_exit "$PID_B"

# ---------------------------------------------------------------- 2. SIGTERM on H2 and on PostgreSQL
sigterm_round() { # kind extra-args…
  local kind=$1 port pid code id stopcodes
  shift
  NEXT_PORT=$((NEXT_PORT + 1)); port=$(service_port "$NEXT_PORT")
  pid=$(start_instance "term-$kind" "$port" --schedsim.workers=1 --schedsim.shutdown-grace=2s "$@"); PIDS+=("$pid")
  await_up "$port" 120 "$pid" || fail "$kind instance did not start"
  : >"$WORK/term-ids"
  read -r code id <<<"$(post "$port" "$LONG")"; [[ "$code" == 202 ]] || fail "$kind: long not accepted"
  echo "$id" >>"$WORK/term-ids"
  for n in 1 2 3; do
    read -r code id <<<"$(post "$port" "$(small "t$n" "$n")")"; [[ "$code" == 202 ]] || fail "$kind: small not accepted"
    echo "$id" >>"$WORK/term-ids"
  done
  sleep 2
  (
    for _ in $(seq 1 40); do
      curl -s -o /dev/null -w '%{http_code}\n' -m 10 "http://127.0.0.1:$port/api/v1/simulations?size=1" || echo 000
      sleep 0.1
    done
  ) >"$WORK/term-clients" 2>/dev/null &
  local clients=$!
  kill -TERM "$pid"
  await_exit "$pid" || fail "$kind: the instance did not stop within 60 s of SIGTERM"
  wait "$clients" 2>/dev/null || true
  stopcodes=$(sort "$WORK/term-clients" | uniq -c | sed 's/^ *//' | tr '\n' ';')
  grep -q '^500' "$WORK/term-clients" && fail "$kind: a request got 500 during the stop ($stopcodes)"
  grep -q "requeued at shutdown" "$WORK/term-$kind.log" || fail "$kind: the running run was not requeued at the stop"
  # (two workers now: the requeued long one takes one, the small ones the other)
  pid=$(start_instance "term-$kind" "$port" --schedsim.workers=2 "$@"); PIDS+=("$pid")
  await_up "$port" 120 "$pid" || fail "$kind instance did not restart"
  # The long one need not finish again: it must be queued or running, the small ones SUCCEEDED.
  local s n=0
  while read -r id; do
    n=$((n + 1))
    for _ in $(seq 1 120); do
      s=$(curl -fsS "http://127.0.0.1:$port/api/v1/simulations/$id" | jq -r .status)
      [[ $n -eq 1 || "$s" == SUCCEEDED ]] && break
      sleep 0.5
    done
    if (( n == 1 )); then
      [[ "$s" == QUEUED || "$s" == RUNNING ]] || fail "$kind: the interrupted long simulation is $s after the restart"
    else
      [[ "$s" == SUCCEEDED ]] || fail "$kind: simulation $id is $s after the restart"
    fi
  done <"$WORK/term-ids"
  echo "SIGTERM on $kind: requests during the stop $stopcodes the running run requeued, all queued ones" \
    "SUCCEEDED after the restart"
  kill -9 "$pid" 2>/dev/null || true; await_exit "$pid"
}
sigterm_round h2 --spring.datasource.url="jdbc:h2:file:$WORK/h2/schedsim$(h2_options)"
psql -q -d postgres -c "drop database if exists $DB" >/dev/null
psql -q -d postgres -c "create database $DB" >/dev/null
sigterm_round postgres "${PG_ARGS[@]}"
fi

# ---------------------------------------------------------------- 3. H2 on a full disk, then room again
readiness() { curl -s -m 5 "http://127.0.0.1:$1/actuator/health/readiness" | jq -r .status 2>/dev/null || echo none; }
disk_round() {
  local dir="$WORK/tmpfs" port pid code id r codes
  mkdir -p "$dir"
  if ! mount -t tmpfs -o size=64m tmpfs "$dir" 2>/dev/null; then
    echo "H2 full disk: skipped (no tmpfs can be mounted here)"
    return 0
  fi
  MOUNTED=$dir
  NEXT_PORT=$((NEXT_PORT + 1)); port=$(service_port "$NEXT_PORT")
  pid=$(start_instance disk "$port" --schedsim.workers=1 \
    --spring.datasource.url="jdbc:h2:file:$dir/schedsim$(h2_options)"); PIDS+=("$pid")
  await_up "$port" 120 "$pid" || fail "the H2 instance on the tmpfs did not start"
  : >"$WORK/disk-ids"
  for n in 1 2 3; do
    read -r code id <<<"$(post "$port" "$(small "d$n" "$n")")"; [[ "$code" == 202 ]] || fail "disk: not accepted ($code)"
    echo "$id" >>"$WORK/disk-ids"
  done
  dd if=/dev/zero of="$dir/filler" bs=1M >/dev/null 2>&1 || true
  codes=""
  for n in $(seq 1 10); do
    read -r code id <<<"$(post "$port" "$(small "full$n" "$n")")"
    codes="$codes $code"
    [[ "$code" == 202 ]] && echo "$id" >>"$WORK/disk-ids"
    sleep 0.3
  done
  r=$(readiness "$port")
  [[ "$codes" == *500* ]] && fail "disk: a submission got 500 on the full disk:$codes"
  [[ "$codes" == *503* ]] || fail "disk: the full disk was not noticed (submissions:$codes)"
  local full_state=$r
  [[ "$full_state" == DOWN ]] || fail "disk: readiness said $full_state on the full disk"
  rm -f "$dir/filler"
  local t0 up_ms=""
  t0=$(date +%s%N)
  for _ in $(seq 1 120); do
    [[ "$(readiness "$port")" == UP ]] && { up_ms=$((($(date +%s%N) - t0) / 1000000)); break; }
    sleep 0.25
  done
  [[ -n "$up_ms" ]] || fail "disk: readiness did not come back after the disk had room again"
  for _ in $(seq 1 20); do
    read -r code id <<<"$(post "$port" "$(small after 9)")"
    [[ "$code" == 202 ]] && break
    sleep 0.5
  done
  [[ "$code" == 202 ]] || fail "disk: a submission is still refused 10 s after readiness said UP ($code)"
  echo "$id" >>"$WORK/disk-ids"
  local s
  while read -r id; do
    for _ in $(seq 1 120); do
      s=$(curl -fsS "http://127.0.0.1:$port/api/v1/simulations/$id" | jq -r .status)
      [[ "$s" == SUCCEEDED ]] && break
      sleep 0.5
    done
    if [[ "$s" != SUCCEEDED ]]; then
      # (seen once in about 25 runs, 2026-12-07: a QUEUED simulation not claimed for 60 s while readiness said UP,
      # its worker silent since H2's "Transaction is closed"; where its threads wait is what the log cannot say)
      jstack "$pid" >"$WORK/disk-threads.log" 2>&1 || true
      fail "disk: simulation $id is $s after the disk had room again"
    fi
  done <"$WORK/disk-ids"
  echo "H2 full disk: submissions on the full disk:$codes; readiness $full_state; UP ${up_ms} ms after the" \
    "filler went, without a restart; all $(wc -l <"$WORK/disk-ids") accepted simulations SUCCEEDED"
  kill -9 "$pid" 2>/dev/null || true; await_exit "$pid"
  umount "$dir" && MOUNTED=""
}
disk_round
echo "fault-test: passed in $(( $(date +%s) - START ))s"
