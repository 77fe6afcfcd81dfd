#!/usr/bin/env bash
# Hostile clients (issue 36 items 1, 2, 6 and 7) against the packaged jar on a free port, security on, H2 in
# memory: slow unread bodies, a header trickle from 1 200 connections, 50 parallel submissions against a queue
# limit of 10, one client's slow uploads beside another's submissions. Prints, as JSON, what each kind of client
# was answered and whether health answered within 1 s throughout (scripts/hostile-clients.py says how); exits 1
# when it did not. About 60 s. Results: docs/security.md, "Hostile clients".
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

ALICE=alice-submit-secret-0001 BOB=bob-submit-secret-000001 ROOT=root-admin-secret-000001
# HC_JAR: another build to try (e.g. an earlier commit's jar), else this tree's.
JAR=${HC_JAR:-$(service_jar)}
PORT=$(service_port 0)
LOG=$(mktemp "${TMPDIR:-/tmp}/hostile-clients.XXXXXX.log")
java -jar "$JAR" --server.port="$PORT" --schedsim.workers=1 --schedsim.warmup=0s \
  --spring.datasource.url="jdbc:h2:mem:hostile;DB_CLOSE_DELAY=-1" \
  --schedsim.security.api-keys="alice:$ALICE:submit,bob:$BOB:submit,root:$ROOT:admin" \
  --schedsim.security.max-queued-per-client=10 --schedsim.security.submissions-per-minute=0 \
  --schedsim.limits.max-submission-events=10000000000000 >"$LOG" 2>&1 &
PID=$!
trap 'kill "$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true' EXIT
await_up "$PORT" 90 "$PID" || { tail -40 "$LOG"; exit 1; }
echo "service on port $PORT (log: $LOG)"
timeout 300 python3 scripts/hostile-clients.py "$PORT" "$ALICE" "$BOB" "$ROOT"
