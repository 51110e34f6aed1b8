#!/usr/bin/python3
"""Spread of repeated trials in make compare's trials.csv files: for each clock, variant, possible
CPU count and benchmark with more than one trial, max/min - 1; prints its median, 90th percentile
and maximum per clock.
    scripts/compare/spread.py Documentation/results/*/trials.csv
"""
import collections
import csv
import sys

groups = collections.defaultdict(list)
for path in sys.argv[1:]:
    for row in csv.DictReader(open(path)):
        key = (path, row["clock"], row["variant"], row["possible_cpus"], row["benchmark"])
        groups[key].append(float(row["value"]))
for clock in sorted({k[1] for k in groups}):
    s = sorted((max(v) / min(v) - 1) * 100 for k, v in groups.items()
               if k[1] == clock and len(v) > 1 and min(v) > 0)
    if s:
        print("%s: %d groups, spread median %.2f%%, 90th percentile %.2f%%, max %.2f%%"
              % (clock, len(s), s[len(s) // 2], s[int(len(s) * 0.9)], s[-1]))
