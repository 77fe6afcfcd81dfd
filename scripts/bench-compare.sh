#!/usr/bin/env bash
# Engine speed of two revisions side by side, on the same machine in one run (the machines are shared and
# noisy: compare the ratio, not the absolute numbers). Builds each revision's engine with javac (no Spring
# needed), each with the NEW revision's benchmark driver (QuickBench, BenchSpecs), and alternates their JVMs.
# usage: scripts/bench-compare.sh OLD_REV [NEW_REV (default: the work tree)] [ROUNDS (default 5)]
#                                  [CASE | PRESET THREADS DURATION_US]
#   CASE: mix (default; 64 CPUs, 256 threads, 2 s), epyc64Groups (the speed issue's 256-CPU case) or
#   validation; or the mix scaled to a topology preset.
#   BC_RUNS (default 25) runs per JVM; each JVM's figure is the median of its last 10 runs, after the JIT has
#   compiled the engine (a 2 s mix is ~0.2 M events: the first runs mostly measure the compiler). Runs are
#   timed on the thread's CPU time. Prints both medians, new/old and each round's ratio.
#   BC_CONCURRENT=1 runs the two JVMs of a round at the same time (one per core of a 2-core machine), so that
#   the host's noise falls on both alike: two builds of the same engine then agreed within ±4 % per round
#   when the host is quiet (sequential rounds: up to ±6 %, far more when it is busy).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
old=$1 new=${2:-WORKTREE} rounds=${3:-5}
shift $(( $# < 3 ? $# : 3 )); machine=("$@")
hdr=$(hdr_jar)
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
extract_src "$new" "$work/new-src"
build() { # rev dir
  local src="$work/$2-src"
  [ -d "$src" ] || extract_src "$1" "$src"
  find "$src/src/main/java/dev/schedsim/engine" -name '*.java' > "$work/$2.files"
  echo "$work/new-src/src/test/java/dev/schedsim/bench/BenchSpecs.java" >> "$work/$2.files"
  echo "$work/new-src/src/test/java/dev/schedsim/bench/QuickBench.java" >> "$work/$2.files"
  mkdir -p "$work/$2"
  javac -nowarn -proc:none -d "$work/$2" -cp "$hdr" @"$work/$2.files"
}
build "$old" old; build "$new" new
runs=${BC_RUNS:-25}
echo "old=$old new=$new rounds=$rounds case=${machine[*]:-mix} ($runs runs per JVM; median of the last 10)"
measure() { # engine
  java -cp "$work/$1:$hdr" dev.schedsim.bench.QuickBench "$runs" "${machine[@]}" | tail -n10 \
    | awk '{print $9}' | sort -g | awk -v v="$1" '{a[NR]=$1} END {printf "%s %.3f\n", v, (a[5]+a[6])/2}'
}
for i in $(seq 1 "$rounds"); do
  if [[ -n "${BC_CONCURRENT:-}" ]]; then
    measure old > "$work/r-old" & measure new > "$work/r-new"; wait
    cat "$work/r-old" "$work/r-new"
  else
    measure old; measure new
  fi
done | tee "$work/results"
awk '{v[$1, ++n[$1]] = $2}
  function median(k,   i, j, t, a, m) {
    m = n[k]; for (i = 1; i <= m; i++) a[i] = v[k, i]
    for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
    return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
  }
  END {
    o = median("old"); w = median("new"); r = ""
    for (i = 1; i <= n["old"] && i <= n["new"]; i++) r = r sprintf(" %.3f", v["new", i] / v["old", i])
    printf "median M events/s: old %.3f new %.3f, new/old = %.3f; per round:%s\n", o, w, w / o, r
  }' "$work/results"
