#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Run pcpu_freelist_mt for several versions of percpu_freelist.c, interleaved.

usage: mt_run.py [--reps N] [--ms MS] [--threads N] [--cases 'SCENARIO:POSSIBLE ...']
                 [--tally] [--gate] [--json F] NAME=BINARY...

The first NAME is the reference (normally base). Each repetition runs every
case once per version, in an order that rotates from one repetition to the
next, so that drift on a busy machine hits every version alike. Prints, per
case and version, the median ns per op, the range over the repetitions, and
the ratio of the medians to the reference. A storm case has two rows: the
stormer's pops and the churners' cycles. --tally (binaries of the tally
build, pcpu_freelist_mtt): also a table of the medians of the counters a
storm case prints, per op of each role.

A race case (race:H:P[:K]:POSSIBLE) has rows of successful inserts per us
(all CPUs, then per CPU), ns per failed pop (all, per CPU), and moves per us;
its x is also median / median of the reference. --gate: check every race
case against the reference: successful inserts at least 0.95x and ns per
failed insert at most 1.00x (one "ok"/"FAIL" line per case and version;
exit 1 on a FAIL). Gate only loads the reference sustains: the open-loop
periods, not the closed loop (P = 0).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

DEFAULT_CASES = ("own:64 ownflip:64 exhausted:2 exhausted:64 exhausted:256 exhausted:1024 "
                 "handoff:64 storm:0:64 storm:20:64 storm:100:64")


def parse_case(text):
    scenario, sep, possible = text.rpartition(":")
    if not sep or not scenario or not possible.isdigit():
        sys.exit(f"mt_run.py: bad case '{text}' (SCENARIO:POSSIBLE)")
    return (scenario, possible)


RACE_GATE = (("ok_per_us", 0.95, None), ("ns_fail", None, 1.00))


def rows(case, threads=2):
    """The rows a case prints: (row name, output field)."""
    name = ":".join(case)
    if case[0].startswith("race:"):
        out = []
        for field, what in (("ok_per_us", "ok/us"), ("ns_fail", "ns/fail"),
                            ("ns_ok", "ns/ok"), ("fail_per_us", "fail/us"),
                            ("moves_per_us", "moves/us")):
            out.append((f"{name} {what}", field))
            out += [(f"{name} {what} cpu{t}", f"c{t}_{field}") for t in range(threads)]
        return out
    if case[0].startswith(("storm:", "stormlast:")):
        out = [(name + " stormer", "ns_stormer"), (name + " churner", "ns_churner")]
        if case[0].count(":") == 2:     # storm:H:P, a paced stormer
            out.append((name + " stormer got/us", "got_per_us"))
        return out
    return [(name, "ns")]


def run(binary, case, ms, threads):
    args = [binary, "-t", str(ms), *threads, *case]
    p = subprocess.run(args, capture_output=True, text=True, timeout=60)
    if p.returncode:
        sys.exit(f"mt_run.py: {' '.join(args)}: {p.stderr.strip() or p.returncode}")
    fields = dict(f.split("=") for f in p.stdout.split())
    rt = fields.pop("rt") == "1"
    fields.pop("threads", None)
    return {k: float(v) for k, v in fields.items()}, rt


def gate(cases, versions, ns, nthreads):
    """Check the race cases against the reference; print a line per case and
    version; return the number of failures."""
    ref = versions[0][0]
    failed = 0
    for c in cases:
        if not c[0].startswith("race:"):
            continue
        fields = dict((f, r) for r, f in rows(c, nthreads))
        for name, _ in versions[1:]:
            why = []
            for field, at_least, at_most in RACE_GATE:
                b = statistics.median(ns[(fields[field], ref)])
                x = statistics.median(ns[(fields[field], name)]) / b if b else float("inf")
                if at_least is not None and x < at_least:
                    why.append(f"{field} x{x:.3f} < {at_least}")
                if at_most is not None and x > at_most:
                    why.append(f"{field} x{x:.3f} > {at_most}")
            verdict = "FAIL" if why else "ok"
            print(f"{verdict} {':'.join(c)} {name}: " + ("; ".join(why) or
                  f"ok_per_us >= {RACE_GATE[0][1]}x, ns_fail <= {RACE_GATE[1][2]}x {ref}"))
            failed += bool(why)
    return failed


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--ms", type=int, default=200)
    ap.add_argument("--threads", type=int, help="threads (default: one per online CPU)")
    ap.add_argument("--cases", default=DEFAULT_CASES)
    ap.add_argument("--tally", action="store_true")
    ap.add_argument("--gate", action="store_true",
                    help="check the race cases against the reference (see above)")
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

    threads = ["--threads", str(a.threads)] if a.threads else []
    nthreads = a.threads or len(os.sched_getaffinity(0))
    ns = {(r, n): [] for c in cases for r, _ in rows(c, nthreads) for n, _ in versions}
    tally = {}  # (case, field, version): values
    rt = True
    for rep in range(a.reps):
        print(f"repetition {rep + 1}/{a.reps}", file=sys.stderr, flush=True)
        for c in cases:
            k = rep % len(versions)
            for name, binary in versions[k:] + versions[:k]:
                values, got_rt = run(binary, c, a.ms, threads)
                for r, field in rows(c, nthreads):
                    ns[(r, name)].append(values.pop(field))
                for field, v in values.items():
                    if field != "ns":
                        tally.setdefault((":".join(c), field, name), []).append(v)
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
    print(f"{'case (scenario:possible)':32}" +
          "".join(f"{n:>30}" for n, _ in versions))
    for c in [r for c in cases for r, _ in rows(c, nthreads)]:
        base = statistics.median(ns[(c, ref)])
        cells = []
        for name, _ in versions:
            vals = ns[(c, name)]
            med = statistics.median(vals)
            d = 1 if med >= 10 else 3
            cell = f"{med:.{d}f} [{min(vals):.{d}f}-{max(vals):.{d}f}]"
            if name != ref:
                cell += f" x{med / base:.2f}" if base else " x-"
            cells.append(cell)
        print(f"{c:32}" + "".join(f"{x:>30}" for x in cells))
    if a.tally and tally:
        print(f"\ncounters per op (tally build), median of {a.reps}: got = pops that "
              "returned a node, lock = locks, rlock = locks of another CPU's head, "
              "wait = locks that had to wait, hintrmw = atomic RMWs of the hint (bitops, "
              "cmpxchg); moves_per_us = the stormer's rlocks per us")
        print(f"{'case counter':32}" + "".join(f"{n:>14}" for n, _ in versions))
        for key in dict.fromkeys((c, f) for c, f, _ in tally):
            cells = [statistics.median(tally.get((*key, n), [float("nan")]))
                     for n, _ in versions]
            print(f"{key[0] + ' ' + key[1]:32}" + "".join(f"{x:>14.3f}" for x in cells))
    failed = gate(cases, versions, ns, nthreads) if a.gate else 0
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"reps": a.reps, "ms": a.ms, "rt": rt,
                       "versions": [n for n, _ in versions],
                       "ns": {f"{c}/{n}": v for (c, n), v in ns.items()},
                       "tally": {f"{c}/{f}/{n}": v for (c, f, n), v in tally.items()}},
                      f, indent=1)
    if failed:
        sys.exit(1)


if __name__ == "__main__":
    main()
