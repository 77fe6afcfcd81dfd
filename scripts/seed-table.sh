#!/usr/bin/env bash
# A seed's published table, reproduced on the seed's machine (bench Seed<NNN>Table): one row per shape, baseline
# and patched kernel over several seeds, in the posting's format. Builds the work tree's engine with javac (no
# Spring), like scripts/bench-compare.sh.
# usage: scripts/seed-table.sh 003 [ARGS...]   (003: TOTAL (96000, the posting's run length) REPS (6) GROUPS...; -Dcost=true, -Dcgroup=/, -Dpreset=NAME via JAVA_OPTS)
#        scripts/seed-table.sh 002 [DURATION_MS (1000)] [REPS (3)] [LOADS_PCT...]; scripts/seed-table.sh 004 [DURATION_MS (1500)] [REPS (3)] [LOADS_PCT...] (-Dpreset, -Dhz via JAVA_OPTS); scripts/seed-table.sh 000 [REPS (4)]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
seed=${1:?usage: scripts/seed-table.sh 003 [ARGS...]}
shift
hdr=$(hdr_jar)
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
extract_src WORKTREE "$work/src"
build_engine "$work/src" "$work/src" "$work/classes" "$hdr" "Seed${seed}Table" Seed003Table SeedTables SeedRuns
start=$(date +%s)
java ${JAVA_OPTS:-} -Xmx6g -cp "$work/classes:$hdr" "dev.schedsim.bench.Seed${seed}Table" "$@"
echo "wall time: $(( $(date +%s) - start )) s"
