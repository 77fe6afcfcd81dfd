#!/usr/bin/env bash
# The engine's events per second against a bare 4 096-entry heap event loop, in the same JVM, pair by pair
# (bench EngineVsBareLoop): the ratio to the limit, measured rather than remembered. Builds the work tree's engine
# with javac (no Spring), like scripts/bench-compare.sh.
# usage: scripts/engine-vs-loop.sh [PAIRS (default 8)] [JVMS (default 1)] [CASE (mix, epyc64Groups, hackbench224,
#                                  validation) | PRESET THREADS DURATION_US]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
pairs=${1:-8} jvms=${2:-1}
shift $(( $# < 2 ? $# : 2 ))
hdr=$(hdr_jar)
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
extract_src WORKTREE "$work/src"
build_engine "$work/src" "$work/src" "$work/classes" "$hdr" BenchSpecs QuickBench BareEventLoop EngineVsBareLoop
for _ in $(seq 1 "$jvms"); do
  java -cp "$work/classes:$hdr" dev.schedsim.bench.EngineVsBareLoop "$pairs" "$@"
done
