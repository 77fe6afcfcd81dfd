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
#   BC_INTERLEAVE=PAIRS runs both engines in one JVM per round instead (each in its own class loader, bench
#   Interleave), alternately: BC_WARMUP (default 3) pairs of warm-up, then PAIRS measured pairs; prints each
#   JVM's median pair ratio and the median over the JVMs; the ratio is of CPU time per run (old/new, above 1
#   is faster), which is the speed for the same simulated work even where the new model has more events. The two runs of a pair are a moment apart, so the
#   host's noise falls on both alike; what is left between JVMs is how the JIT compiled each engine there.
#   BC_JVM_ARGS: options for those JVMs (e.g. a garbage collector), unquoted.
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
  build_engine "$src" "$work/new-src" "$work/$2" "$hdr" BenchSpecs QuickBench
}
build "$old" old; build "$new" new
if [[ -n "${BC_INTERLEAVE:-}" ]]; then
  echo "$work/new-src/src/test/java/dev/schedsim/bench/Interleave.java" > "$work/h.files"
  mkdir -p "$work/h"; javac -nowarn -proc:none -d "$work/h" @"$work/h.files"
  warm=${BC_WARMUP:-3}
  echo "old=$old new=$new case=${machine[*]:-mix}: $rounds JVMs, each $warm warm-up pairs then $BC_INTERLEAVE measured pairs"
  for i in $(seq 1 "$rounds"); do
    java ${BC_JVM_ARGS:-} -cp "$work/h" dev.schedsim.bench.Interleave "$work/old" "$work/new" "$hdr" "$warm" "$BC_INTERLEAVE" \
      "${machine[@]}"
  done | tee "$work/results"
  # (each JVM compiles each engine its own way: the spread between JVMs is the JIT's, not the host's)
  awk '{r[++n] = $NF} END {
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (r[j] < r[i]) { t = r[i]; r[i] = r[j]; r[j] = t }
    printf "median over %d JVMs of their median pair speed ratio (old CPU time / new): %.3f (lowest %.3f, highest %.3f)\n", n,
      n % 2 ? r[(n + 1) / 2] : (r[n / 2] + r[n / 2 + 1]) / 2, r[1], r[n]
  }' "$work/results"
  exit 0
fi
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
