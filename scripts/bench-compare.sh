#!/usr/bin/env bash
# Engine speed of two revisions side by side, on the same machine in one run (the machines are shared and
# noisy: compare the ratio, not the absolute numbers). Builds each revision's engine and benchmark
# classes with javac (no Spring needed) and alternates their runs.
# usage: scripts/bench-compare.sh OLD_REV [NEW_REV (default: the work tree)] [ROUNDS (default 5)] [PRESET THREADS DURATION_US]
#   BC_RUNS (default 25) runs per JVM; each JVM's figure is the median of its last 10 runs, after the JIT has
#   compiled the engine (a 2 s mix is ~0.2 M events: the first runs mostly measure the compiler).
#   (the optional machine needs QuickBench from 2026-11-29 or later in both revisions)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
old=$1 new=${2:-WORKTREE} rounds=${3:-5}
shift $(( $# < 3 ? $# : 3 )); machine=("$@")
hdr=$(find "${MAVEN_USER_HOME:-$HOME/.m2}/repository/org/hdrhistogram/HdrHistogram" -name 'HdrHistogram-*.jar' | sort | tail -n1)
[ -n "$hdr" ] || { echo "HdrHistogram jar not found: run ./mvnw -q dependency:resolve first" >&2; exit 2; }
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
build() { # rev dir
  local src="$work/$2-src"; mkdir -p "$src" "$work/$2"
  if [ "$1" = WORKTREE ]; then
    cp -r "$root/src" "$src/"
  else
    git -C "$root" archive "$1" src | tar -x -C "$src"
  fi
  find "$src/src/main/java/dev/schedsim/engine" -name '*.java' > "$work/$2.files"
  find "$src/src/test/java/dev/schedsim/bench" -name 'BenchSpecs.java' -o -name 'QuickBench.java' \
    | grep -v '^$' >> "$work/$2.files"
  javac -nowarn -proc:none -d "$work/$2" -cp "$hdr" @"$work/$2.files"
}
build "$old" old; build "$new" new
runs=${BC_RUNS:-25}
echo "old=$old new=$new rounds=$rounds machine=${machine[*]:-64-CPU 256-thread mix, 2 s} ($runs runs per JVM; median of the last 10)"
for i in $(seq 1 "$rounds"); do
  for v in old new; do
    java -cp "$work/$v:$hdr" dev.schedsim.bench.QuickBench "$runs" "${machine[@]}" | tail -n10 \
      | awk '{print $9}' | sort -g | awk -v v=$v '{a[NR]=$1} END {printf "%s %.3f\n", v, (a[5]+a[6])/2}'
  done
done | tee "$work/results"
awk '{s[$1]+=$2; n[$1]++} END {o=s["old"]/n["old"]; w=s["new"]/n["new"];
  printf "mean M events/s: old %.3f new %.3f, new/old = %.2f\n", o, w, w/o}' "$work/results"
