#!/usr/bin/env python3
"""Tabulate a workflow run's benchmarks per rule: jobs, total and longest
wall seconds, CPU seconds, and peak resident memory (max_rss, MB), from the
Snakemake benchmark files under WORKDIR/benchmarks/ (workflow/Snakefile).

usage: scripts/workflow-report.py WORKDIR
"""
import csv
import os
import sys


def main(workdir):
    root = os.path.join(workdir, "benchmarks")
    rows = {}
    for dirpath, _, files in os.walk(root):
        for f in files:
            if not f.endswith(".tsv"):
                continue
            path = os.path.join(dirpath, f)
            rule = os.path.relpath(path, root).split(os.sep)[0].removesuffix(".tsv")
            with open(path) as fh:
                for r in csv.DictReader(fh, delimiter="\t"):
                    def num(k):
                        try:
                            return float(r.get(k, "NA"))
                        except ValueError:
                            return 0.0
                    agg = rows.setdefault(rule, {"jobs": 0, "s": 0.0, "max_s": 0.0, "cpu": 0.0, "rss": 0.0})
                    agg["jobs"] += 1
                    agg["s"] += num("s")
                    agg["max_s"] = max(agg["max_s"], num("s"))
                    agg["cpu"] += num("cpu_time")
                    agg["rss"] = max(agg["rss"], num("max_rss"))
    if not rows:
        sys.exit(f"{root}: no benchmark files")
    print("| rule | jobs | wall s (sum) | wall s (longest job) | CPU s | peak RSS MB (largest job) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    order = ["import", "train", "score", "check", "summary"]
    for rule in sorted(rows, key=lambda r: order.index(r) if r in order else 99):
        a = rows[rule]
        print(f"| {rule} | {a['jobs']} | {a['s']:.1f} | {a['max_s']:.1f} | {a['cpu']:.1f} | {a['rss']:.0f} |")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
