#!/usr/bin/env bash
# The README's advice commands ("Which limit to set") run as they are, with curl and jq, against the service on
# another port (the only change made to them: localhost:8080 -> localhost:$PORT). Each must print what the README
# says it prints: the pod's summary, kubectl patch command and Helm values; the observed counters' summary and
# cpu.max. Starts the service on $SCHEDSIM_PORT (else a free port) with a temporary H2 database. About 30 s.
# Exit codes: 0 ok, 1 a command failed or printed something else.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
JAR=$(service_jar)
WORK=$(mktemp -d)
PORT=$(service_port 0)
java -jar "$JAR" --server.port="$PORT" --spring.datasource.url="jdbc:h2:file:$WORK/db;AUTO_SERVER=FALSE" \
  --schedsim.warmup=0s >"$WORK/service.log" 2>&1 &
PID=$!
cleanup() { kill "$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT
await_up "$PORT" 120 "$PID"

# The bash blocks of the README's section, one file each.
python3 - "$WORK" "$PORT" <<'PY'
import re, sys
work, port = sys.argv[1], sys.argv[2]
readme = open("README.md").read()
section = readme[readme.index("## Which limit to set"):]
section = section[:section.index("\n## ", 1)]
blocks = re.findall(r"```bash\n(.*?)```", section, re.S)
assert len(blocks) == 2, "expected the pod's and the observed counters' commands, found %d blocks" % len(blocks)
for i, b in enumerate(blocks):
    open("%s/block%d.sh" % (work, i), "w").write(b.replace("localhost:8080", "localhost:" + port))
PY

for i in 0 1; do
  timeout 600 bash -euo pipefail "$WORK/block$i.sh" >"$WORK/out$i" 2>&1 \
    || { echo "README advice command $((i + 1)) failed:" >&2; cat "$WORK/out$i" >&2; exit 1; }
  echo "--- README advice command $((i + 1)) printed:"; cat "$WORK/out$i"
done
grep -q "is the smallest limit that met the objective" "$WORK/out0" \
  && grep -q "^kubectl -n shop patch deployment web --type strategic -p " "$WORK/out0" \
  && grep -q "^  limits:" "$WORK/out0" \
  || { echo "the pod's command did not print a summary, a kubectl patch and Helm values" >&2; exit 1; }
grep -q "candidates reproduced the counters" "$WORK/out1" && grep -Eq "^[0-9]+ [0-9]+$" "$WORK/out1" \
  || { echo "the observed counters' command did not print a summary and a cpu.max" >&2; exit 1; }
echo "readme-advice-check: PASS — the README's advice commands run as they are"
