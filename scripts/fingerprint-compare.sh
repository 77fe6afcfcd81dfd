#!/usr/bin/env bash
# Are two revisions' engine results byte-identical? Builds each revision's engine with javac (no Spring needed)
# and the newer revision's ReportFingerprint driver, runs it on both and compares the SHA-256 of their reports
# (7 presets × every kernel profile with every workload type, the benchmark specs, long run queues).
# usage: scripts/fingerprint-compare.sh OLD_REV [NEW_REV (default: the work tree)]
#   exit status 0 when identical, 1 when not (then the per-spec digests that differ are printed).
#   FP_MASK=timeSeries,contextSwitches leaves those report fields out (a change that moves them on purpose).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
old=$1 new=${2:-WORKTREE}
hdr=$(hdr_jar)
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
extract_src "$new" "$work/new-src"
[ "$old" = "$new" ] || extract_src "$old" "$work/old-src"
for v in old new; do
  src="$work/$v-src"; [ -d "$src" ] || src="$work/new-src"
  build_engine "$src" "$work/new-src" "$work/$v" "$hdr" BenchSpecs ReportFingerprint
  java -Dfp.mask="${FP_MASK:-}" -cp "$work/$v:$hdr" dev.schedsim.bench.ReportFingerprint -v > "$work/$v.out" &
done
wait
echo "old=$old $(tail -n1 "$work/old.out")"
echo "new=$new $(tail -n1 "$work/new.out")"
if cmp -s "$work/old.out" "$work/new.out"; then
  echo "identical"
else
  echo "DIFFERENT:"; diff "$work/old.out" "$work/new.out" | grep '^[<>]' | head -20
  exit 1
fi
