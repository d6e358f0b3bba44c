# The workflow test's small set, shared by workflow/test.sh and
# scripts/slurm-single-node.sh demo (source this file; $root is the
# repository): 40 ALMANAC drugs (the first 40 rows of ALMANAC's drug table)
# × 3 lines (PC-3, MCF7, A549) × 4 shards, one seed of deup, 3 epochs.
#
#   small_set DIR DATA TRAIN_THREADS [YAML_LINE...]
#
# builds deup into DIR, writes DIR/catalogue.csv and DIR/config.yaml, the
# YAML_LINEs (such as mem_mb for Slurm) last.
small_set() {
  local dir="$1" data="$2" train_threads="$3"
  shift 3
  (cd "$root" && go build -o "$dir/deup" ./cmd/deup)
  head -41 "$data/almanac/drugs.csv" > "$dir/catalogue.csv"
  {
    cat <<YAML
deup: $dir/deup
screen: {format: almanac, pairs: $data/almanac/synergy_panel.csv, drugs: $data/almanac/drugs.csv}
cell_lines: [PC-3, MCF7, A549]
catalogue: $dir/catalogue.csv
shards: 4
seeds: [1]
methods: [deup]
train_args: "--epochs 3"
batch: 10
threads: {train: $train_threads, score: 1}
YAML
    if [ $# -gt 0 ]; then
      printf '%s\n' "$@"
    fi
  } > "$dir/config.yaml"
}
