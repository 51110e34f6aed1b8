#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Run pcpu_freelist_mt for several versions of percpu_freelist.c, interleaved.

usage: mt_run.py [--reps N] [--ms MS] [--cases 'W:P[:N] ...'] [--json F] NAME=BINARY...

The first NAME is the reference (normally base). Each repetition runs every
case once per version, in an order that rotates from one repetition to the
next, so that drift on a busy machine hits every version alike. Prints, per
case and version, the median ns per op, the range over the repetitions, and
the ratio of the medians to the reference.
"""
import argparse
import json
import statistics
import subprocess
import sys
import time

DEFAULT_CASES = ("own-full:64 own-flip:64 two-lists:2 handoff:64:1 handoff:64:8 "
                 "handoff:2:8 exhausted:1 exhausted:2 exhausted:8 exhausted:64 "
                 "exhausted:256 exhausted:1024")


def parse_case(text):
    parts = text.split(":")
    if len(parts) not in (2, 3) or not all(p.isdigit() for p in parts[1:]):
        sys.exit(f"mt_run.py: bad case '{text}' (WORKLOAD:POSSIBLE[:NODES])")
    return tuple(parts)


def run(binary, case, ms):
    args = [binary, "-t", str(ms), *case]
    p = subprocess.run(args, capture_output=True, text=True, timeout=60)
    if p.returncode:
        sys.exit(f"mt_run.py: {' '.join(args)}: {p.stderr.strip() or p.returncode}")
    fields = dict(f.split("=") for f in p.stdout.split())
    return float(fields["ns"]), fields["rt"] == "1"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--ms", type=int, default=200)
    ap.add_argument("--cases", default=DEFAULT_CASES)
    ap.add_argument("--json")
    ap.add_argument("versions", nargs="+", metavar="NAME=BINARY")
    a = ap.parse_args()
    if a.reps < 1 or a.ms < 1:
        sys.exit("mt_run.py: --reps and --ms must be positive")
    versions = []
    for v in a.versions:
        name, sep, binary = v.partition("=")
        if not sep or not name or not binary:
            sys.exit(f"mt_run.py: bad version '{v}' (NAME=BINARY)")
        versions.append((name, binary))
    cases = [parse_case(c) for c in a.cases.split()]

    ns = {(c, n): [] for c in cases for n, _ in versions}
    rt = True
    for rep in range(a.reps):
        print(f"repetition {rep + 1}/{a.reps}", file=sys.stderr, flush=True)
        for c in cases:
            k = rep % len(versions)
            for name, binary in versions[k:] + versions[:k]:
                value, got_rt = run(binary, c, a.ms)
                ns[(c, name)].append(value)
                # Stay well within the kernel's real-time budget (95% of
                # each second): a throttled worker would stall mid-run.
                time.sleep(a.ms / 1000 / 2)
                rt = rt and got_rt
    if not rt:
        print("note: SCHED_FIFO was not available (not root?): the worker threads ran "
              "at normal priority, so other load on the machine shows in these numbers")
    ref = versions[0][0]
    print(f"ns per op, median of {a.reps} interleaved repetitions of {a.ms} ms "
          f"[min-max]; x = median / median of {ref}")
    print(f"{'case (workload:possible:nodes)':32}" +
          "".join(f"{n:>28}" for n, _ in versions))
    for c in cases:
        base = statistics.median(ns[(c, ref)])
        cells = []
        for name, _ in versions:
            vals = ns[(c, name)]
            med = statistics.median(vals)
            cell = f"{med:.1f} [{min(vals):.1f}-{max(vals):.1f}]"
            if name != ref:
                cell += f" x{med / base:.2f}"
            cells.append(cell)
        print(f"{':'.join(c):32}" + "".join(f"{x:>28}" for x in cells))
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"reps": a.reps, "ms": a.ms, "rt": rt,
                       "versions": [n for n, _ in versions],
                       "ns": {f"{':'.join(c)}/{n}": v for (c, n), v in ns.items()}},
                      f, indent=1)


if __name__ == "__main__":
    main()
