"""Spread of repeated trials in make compare's trials.csv files: for each clock, variant, possible
CPU count and benchmark with more than one trial, max/min - 1; prints its median, 90th percentile
and maximum per clock.
    scripts/readout.py spread [-x GLOB] records/*/compare/*/trials.csv
    -x GLOB   leave out the benchmarks whose name matches GLOB (e.g. 'rhash-*')
"""
import collections
import csv
import fnmatch
import sys

from . import cli


def main(args, prog):
    exclude = None
    if args[:1] == ["-x"] and len(args) > 1:
        exclude, args = args[1], args[2:]
    if not args or args[0].startswith("-"):
        return cli.usage_error(prog, "no trials.csv given" if not args else "no such option: " + args[0])
    groups = collections.defaultdict(list)
    for path in args:
        with open(path) as f:
            rows = list(csv.DictReader(f))
        for row in rows:
            if exclude and fnmatch.fnmatch(row["benchmark"], exclude):
                continue
            key = (path, row["clock"], row["variant"], row["possible_cpus"], row["benchmark"])
            groups[key].append(float(row["value"]))
    for clock in sorted({k[1] for k in groups}):
        s = sorted((max(v) / min(v) - 1) * 100 for k, v in groups.items()
                   if k[1] == clock and len(v) > 1 and min(v) > 0)
        if s:
            print("%s: %d groups, spread median %.2f%%, 90th percentile %.2f%%, max %.2f%%"
                  % (clock, len(s), s[len(s) // 2], s[int(len(s) * 0.9)], s[-1]))
