#!/usr/bin/env bash
# Reads every table file deup writes with the tools labs use: DuckDB
# (@duckdb/node-api) reads each Parquet file, Apache Arrow JS (apache-arrow)
# each Arrow file, and check.mjs compares their values with the CSV twin the
# same command writes (or with the other format where there is no CSV).
# Run from anywhere: bash scripts/interop/run.sh [WORKDIR]. Needs node (20+)
# and npm; installs the pinned packages (package-lock.json) with npm ci; the
# real data beside the checkout (../shared/data, or DEUP_DATA) for the
# ALMANAC import and the O'Neil plates. .ci/run runs it.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
work="${1:-$(mktemp -d)}"
data="${DEUP_DATA:-$root/../shared/data}"
mkdir -p "$work"
cd "$here"
npm ci --no-audit --no-fund --silent
(cd "$root" && go build -o "$work/deup" ./cmd/deup)
d="$work/deup"
cd "$work"
# predict: one model (the synthetic default, a few epochs), every pair in
# CSV, Parquet and Arrow, with intervals; the same pairs in 3 hive shards.
$d train --epochs 3 --out m.model > train.log
for f in csv parquet arrow; do $d predict --model m.model --all-pairs --coverage 0.9 --out "pred.$f" 2> /dev/null > /dev/null; done
$d predict --model m.model --all-pairs --out pred-plain.csv > /dev/null 2>&1
for i in 0 1 2; do $d predict --model m.model --all-pairs --shard "$i/3" --out scores > /dev/null 2>&1; done
# suggest: CSV and Parquet
for f in csv parquet; do $d suggest --model m.model --batch 20 --out "sugg.$f" > /dev/null; done
# bench: predictions.parquet (its twin: the per-method rmse of results.json)
$d bench --seeds 1 --epochs 2 --methods deup,ensemble --no-figures --out bench-out > bench.log
# doseresp: blocks and wells, CSV and Parquet (O'Neil's plates)
if [ -f "$data/doseresponse/ONEIL_screening_data.csv" ]; then
  $d data synergy --responses "$data/doseresponse/ONEIL_screening_data.csv" --out oneil > /dev/null
  # almanac import: the screen's pairs and drugs, Arrow and Parquet
  $d data import --format almanac --pairs "$data/almanac/synergy_PC-3.csv" --drugs "$data/almanac/drugs.csv" --out pc3 > /dev/null
else
  echo "interop: no real data at $data: the doseresp and ALMANAC files are not checked" >&2
  [ "${DEUP_REQUIRE_DATA:-}" != 1 ] || exit 1
fi
node "$here/check.mjs" "$work"
