#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Join two Google Benchmark JSON files into a base/series table.

usage: bench_table.py BASE.json SERIES.json
With repetitions, the median aggregate is used when present.
"""
import json
import sys


def load(path):
    with open(path) as f:
        runs = json.load(f)["benchmarks"]
    out = {}
    for r in runs:
        if r.get("run_type") == "aggregate":
            if r.get("aggregate_name") != "median":
                continue
            name = r["run_name"]
        elif any(x.get("run_type") == "aggregate" for x in runs):
            continue
        else:
            name = r["name"]
        assert r["time_unit"] == "ns", r["time_unit"]
        out[name] = (r["cpu_time"], r.get("locks/op"))
    return out


def main():
    base, series = load(sys.argv[1]), load(sys.argv[2])
    hdr = "%-24s %10s %10s %10s %9s %9s" % (
        "benchmark/possible_cpus", "base ns", "series ns", "base/series",
        "b locks", "s locks")
    print(hdr)
    print("-" * len(hdr))
    for name, (bt, bl) in base.items():
        st, sl = series.get(name, (float("nan"), None))
        print("%-24s %10.1f %10.1f %10.2f %9s %9s" % (
            name.replace("BM_", ""), bt, st, bt / st if st else float("nan"),
            "-" if bl is None else "%.2f" % bl,
            "-" if sl is None else "%.2f" % sl))


if __name__ == "__main__":
    main()
