#!/usr/bin/env bash
# Opens a real report page in headless Chromium and checks the screenshot.
#   scripts/report-screenshot.sh            # builds the jar if needed, writes target/report.png
#   RS_BODY=req.json RS_OUT=target/first.png scripts/report-screenshot.sh   # the report of your own request
# Installs Debian's chromium when it is missing (needs root and apt). Starts the service on $SCHEDSIM_PORT (else a free port)
# with a temporary H2 database, runs a small scenario to completion, screenshots its HTML report and checks that
# the PNG is non-trivial and not blank (distinct colours, decoded with python3's zlib, or ImageMagick).
# Exit codes: 0 ok, 1 a real failure (service, report or screenshot wrong), 2 chromium unavailable.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
OUT=${RS_OUT:-target/report.png}

if ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "chromium missing: installing Debian's chromium" >&2
    apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null \
      || { echo "could not install chromium" >&2; exit 2; }
  else
    echo "chromium missing and cannot be installed here" >&2; exit 2
  fi
fi

JAR=$(ls target/schedsim-*.jar 2>/dev/null | grep -v plain | head -n1 || true)
if [ -z "$JAR" ] || [ -n "$(find src/main pom.xml -newer "$JAR" -type f | head -n1)" ]; then
  ./mvnw -B -q -o -DskipTests package >/dev/null
  JAR=$(ls target/schedsim-*.jar | grep -v plain | head -n1)
fi

WORK=$(mktemp -d)
PORT=$(service_port 0)
java -jar "$JAR" --server.port="$PORT" --spring.datasource.url="jdbc:h2:file:$WORK/db;AUTO_SERVER=FALSE" \
  --schedsim.poll-interval=50ms >"$WORK/service.log" 2>&1 &
PID=$!
cleanup() { kill "$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT
BASE="http://127.0.0.1:$PORT"
for _ in $(seq 1 120); do curl -fs "$BASE/actuator/health" >/dev/null 2>&1 && break; sleep 0.5; done
curl -fs "$BASE/actuator/health" >/dev/null || { echo "service did not start" >&2; tail -50 "$WORK/service.log" >&2; exit 1; }

if [ -n "${RS_BODY:-}" ]; then
  ID=$(curl -fs -X POST "$BASE/api/v1/simulations" -H 'Content-Type: application/json' --data-binary "@$RS_BODY" \
    | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
else
  ID=$(curl -fs -X POST "$BASE/api/v1/scenarios/seed-001-return-runtime-fix/run" -H 'Content-Type: application/json' \
    -d '{ "repetitions": 2, "durationMs": 2000 }' | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
fi
for _ in $(seq 1 600); do
  STATUS=$(curl -fs "$BASE/api/v1/simulations/$ID" | python3 -c 'import json,sys; print(json.load(sys.stdin)["status"])')
  case "$STATUS" in QUEUED|RUNNING) sleep 0.2 ;; *) break ;; esac
done
[ "$STATUS" = SUCCEEDED ] || { echo "simulation $ID ended $STATUS" >&2; exit 1; }
URL="$BASE/api/v1/simulations/$ID/report"
# (read the page whole first: with pipefail, grep -q closing the pipe early makes curl fail with SIGPIPE)
PAGE=$(curl -fs "$URL") || { echo "could not read the report $URL" >&2; exit 1; }
grep -q "<svg" <<<"$PAGE" || { echo "the HTML report has no plot" >&2; exit 1; }

shoot() { # URL OUT: a screenshot of the page, checked to be non-trivial and not blank
  local URL=$1 OUT=$2 SIZE COLOURS
  mkdir -p "$(dirname "$OUT")"
  rm -f "$OUT"
  timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync --disable-dev-shm-usage \
    --user-data-dir="$WORK/chromium" --screenshot="$OUT" --window-size=1280,2000 "$URL" >"$WORK/chromium.log" 2>&1 || true
  [ -s "$OUT" ] || { echo "no screenshot" >&2; tail -20 "$WORK/chromium.log" >&2; exit 1; }
  SIZE=$(stat -c %s "$OUT")
  [ "$SIZE" -gt 20000 ] || { echo "screenshot only $SIZE bytes" >&2; exit 1; }

  # Not blank: count distinct colours (plots draw in several colours on white).
  COLOURS=$(python3 - "$OUT" <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n"
pos, idat, w, h, ct, bd = 8, b"", 0, 0, 0, 0
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8]); body = data[pos + 8:pos + 8 + n]; pos += 12 + n
    if kind == b"IHDR": w, h, bd, ct = struct.unpack(">IIBB", body[:10])
    elif kind == b"IDAT": idat += body
assert bd == 8 and ct in (2, 6), (bd, ct)
bpp = 3 if ct == 2 else 4
raw = zlib.decompress(idat); stride = w * bpp; prev = bytearray(stride); seen = set(); i = 0
for y in range(h):
    f = raw[i]; line = bytearray(raw[i + 1:i + 1 + stride]); i += 1 + stride
    for x in range(stride):
        a = line[x - bpp] if x >= bpp else 0; b = prev[x]; c = prev[x - bpp] if x >= bpp else 0
        if f == 1: line[x] = (line[x] + a) & 255
        elif f == 2: line[x] = (line[x] + b) & 255
        elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    if y % 4 == 0:
        for x in range(0, stride, bpp * 2): seen.add(bytes(line[x:x + 3]))
    prev = line
print(len(seen))
PY
  )
  [ "$COLOURS" -ge 16 ] || { echo "screenshot looks blank ($COLOURS colours)" >&2; exit 1; }
  echo "report screenshot: $OUT ($SIZE bytes, $COLOURS distinct colours sampled) of $URL"
}

shoot "$URL" "$OUT"

# The limits advisor's report (its trade-off plot), unless a request of one's own was given.
if [ -z "${RS_BODY:-}" ]; then
  AID=$(curl -fs -X POST "$BASE/api/v1/advice" -H 'Content-Type: application/json' -d '{
    "name": "web-limit",
    "request": { "topology": { "preset": "validation-2c" },
      "cgroups": [ { "path": "/web", "cpuMax": "50000 100000" } ],
      "workloads": [ { "name": "web", "cgroup": "/web", "type": "periodic", "threads": 4, "runUs": 2000, "sleepUs": 8000 } ],
      "durationMs": 1000 },
    "cgroup": "/web", "workload": "web", "objective": { "maxThrottledPeriodsPct": 5 },
    "search": { "quotaUs": { "min": 20000, "max": 200000 }, "periodsUs": [100000, 50000] }, "repetitions": 2 }' \
    | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
  for _ in $(seq 1 900); do
    STATUS=$(curl -fs "$BASE/api/v1/advice/$AID" | python3 -c 'import json,sys; print(json.load(sys.stdin)["status"])')
    [ "$STATUS" = RUNNING ] && sleep 0.2 || break
  done
  [ "$STATUS" = SUCCEEDED ] || { echo "advice $AID ended $STATUS" >&2; exit 1; }
  AURL="$BASE/api/v1/advice/$AID/report"
  APAGE=$(curl -fs "$AURL") || { echo "could not read the advice report $AURL" >&2; exit 1; }
  grep -q "<circle" <<<"$APAGE" || { echo "the advice report has no trade-off plot" >&2; exit 1; }
  shoot "$AURL" "$(dirname "$OUT")/advice-report.png"
fi
