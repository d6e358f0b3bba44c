#!/usr/bin/env bash
# End-to-end test of the workflow (run by .ci/run): 40 drugs × 3 ALMANAC
# lines × 4 shards with --cores 2 in a temporary directory. It checks that
#   1. the workflow runs to the end and deup scores check finds the shards
#      complete;
#   2. a second run has nothing to do;
#   3. after removing one shard and the summary, only that shard, the check
#      and the summary are rebuilt (the other shards keep their mtime);
#   4. the merged checksum equals a one-process run's (deup predict without
#      --shard, per line, into another directory).
# Needs snakemake (Debian: apt-get install --no-install-recommends snakemake)
# and the real data (../shared/data or $DEUP_DATA); without the data it
# skips, unless DEUP_REQUIRE_DATA=1.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
data="${DEUP_DATA:-$(dirname "$root")/shared/data}"
if [ ! -f "$data/almanac/synergy_panel.csv" ]; then
  if [ "${DEUP_REQUIRE_DATA:-}" = 1 ]; then
    echo "workflow test: $data/almanac/synergy_panel.csv not found (DEUP_REQUIRE_DATA=1)" >&2
    exit 1
  fi
  echo "workflow test: skipped: no real data at $data"
  exit 0
fi
command -v snakemake >/dev/null || { echo "workflow test: snakemake not on PATH" >&2; exit 1; }

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# deup, a 40-drug catalogue and config.yaml (workflow/small-set.sh).
. "$root/workflow/small-set.sh"
small_set "$tmp" "$data" 2
work="$tmp/work"
mkdir "$work"
sm() { snakemake -s "$root/workflow/Snakefile" --directory "$work" --configfile "$tmp/config.yaml" --cores 2 "$@"; }
t0=$(date +%s)

echo "== 1. first run"
sm --profile "$root/workflow/profiles/local" --quiet > "$tmp/run1.log" 2>&1 || { cat "$tmp/run1.log"; exit 1; }
"$tmp/deup" scores check "$work/results/scores/deup-seed1" | tee "$tmp/check1.txt"
sum1=$(awk '/: complete:/ {print $NF}' "$tmp/check1.txt")
[ -n "$sum1" ] || { echo "FAIL: the shards are not complete" >&2; exit 1; }
grep -q "^rank,cell_line," "$work/results/summary/deup-seed1-batch.csv" || { echo "FAIL: no batch" >&2; exit 1; }
for f in import.log train/deup-seed1/PC-3.log score/deup-seed1/MCF7/part-3.log check/deup-seed1.log summary/deup-seed1.log; do
  [ -s "$work/logs/$f" ] || [ "$f" = check/deup-seed1.log ] || { echo "FAIL: no log $f" >&2; exit 1; }
done

python3 "$root/scripts/workflow-report.py" "$work" | tee "$tmp/report.md"
grep -q "^| score | 12 |" "$tmp/report.md" || { echo "FAIL: want 12 score jobs' benchmarks" >&2; exit 1; }

echo "== 2. second run: nothing to do"
sm --dry-run > "$tmp/run2.log" 2>&1
grep -q "Nothing to be done" "$tmp/run2.log" || { cat "$tmp/run2.log"; echo "FAIL: the second run has work to do" >&2; exit 1; }

echo "== 3. one shard and the summary removed: only they (and the check) rebuilt"
keep="$work/results/scores/deup-seed1/cell_line=PC-3/part-0-of-4.parquet"
before=$(stat -c %Y.%N "$keep" 2>/dev/null || stat -c %Y "$keep")
ls -l --time-style=+%s.%N "$work"/results/scores/deup-seed1/*/ > "$tmp/before.txt"
rm "$work/results/scores/deup-seed1/cell_line=MCF7/part-2-of-4.parquet" "$work/results/summary/deup-seed1-batch.csv"
sm --dry-run --quiet > "$tmp/plan.log" 2>&1 || true
jobs=$(awk '$1 ~ /^(all|score|check|summary|train|import_screen)$/ {print $1"="$2}' "$tmp/plan.log" | sort | tr '\n' ' ')
echo "planned: $jobs"
[ "$jobs" = "all=1 check=1 score=1 summary=1 " ] || { cat "$tmp/plan.log"; echo "FAIL: want exactly all=1 check=1 score=1 summary=1" >&2; exit 1; }
sm --profile "$root/workflow/profiles/local" --quiet > "$tmp/run3.log" 2>&1 || { cat "$tmp/run3.log"; exit 1; }
ls -l --time-style=+%s.%N "$work"/results/scores/deup-seed1/*/ > "$tmp/after.txt"
changed=$(diff "$tmp/before.txt" "$tmp/after.txt" | grep '^>' | grep -c parquet || true)
[ "$changed" = 1 ] || { diff "$tmp/before.txt" "$tmp/after.txt"; echo "FAIL: $changed part files changed, want 1" >&2; exit 1; }
"$tmp/deup" scores check "$work/results/scores/deup-seed1" > "$tmp/check3.txt"
sum3=$(awk '/: complete:/ {print $NF}' "$tmp/check3.txt")
[ "$sum3" = "$sum1" ] || { echo "FAIL: checksum after the rebuild $sum3, before $sum1" >&2; exit 1; }

echo "== 4. one process per line: the same checksum"
for line in PC-3 MCF7 A549; do
  "$tmp/deup" predict --model "$work/results/models/deup-seed1/$line.model" --all-pairs \
    --drugs "$tmp/catalogue.csv" --out "$tmp/one" > /dev/null 2>&1
done
"$tmp/deup" scores check "$tmp/one" > "$tmp/check4.txt"
sum4=$(awk '/: complete:/ {print $NF}' "$tmp/check4.txt")
echo "workflow shards: $sum1; one process: $sum4"
[ "$sum4" = "$sum1" ] || { echo "FAIL: checksums differ" >&2; exit 1; }
echo "workflow test: ok in $(( $(date +%s) - t0 )) s"
