#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The race cases of an mt_run.py JSON as one table with a row per case and version.

usage: race_table.py RESULTS.json

Columns, each the median over the repetitions: successful inserts per us (all
CPUs, then CPU 0 and CPU 1), CPU 1's share of them, moves of an element
between CPUs per us, ns per successful and per failed pop, failed inserts per
us, and the pop time per successful insert: (ok * ns_ok + fail * ns_fail) /
ok, the CPU time the freelist costs for each element a CPU gets.
"""
import json
import re
import statistics
import sys

CASE = re.compile(r"^(race:[^ ]+) ok/us$")


def table(data):
    versions = data["versions"]
    ns = data["ns"]

    def med(row, v):
        vals = ns.get(f"{row}/{v}")
        return statistics.median(vals) if vals else float("nan")

    cases = []
    for key in ns:
        m = CASE.match(key.rsplit("/", 1)[0])
        if m and m.group(1) not in cases:
            cases.append(m.group(1))
    out = ["| case (H:P:K:possible) | version | ok/us | cpu0 | cpu1 | cpu1 share | moves/us "
           "| ns/ok | ns/fail | fail/us | pop ns per ok |",
           "|---|---|---|---|---|---|---|---|---|---|---|"]
    for c in cases:
        for v in versions:
            ok, c0, c1 = (med(f"{c} ok/us{s}", v) for s in ("", " cpu0", " cpu1"))
            moves, ns_ok, ns_fail, fail = (med(f"{c} {w}", v) for w in
                                           ("moves/us", "ns/ok", "ns/fail", "fail/us"))
            share = c1 / (c0 + c1) if c0 + c1 else float("nan")
            per_ok = (ok * ns_ok + fail * ns_fail) / ok if ok else float("nan")
            out.append(f"| {c[len('race:'):]} | {v} | {ok:.3f} | {c0:.3f} | {c1:.3f} | "
                       f"{share:.2f} | {moves:.3f} | {ns_ok:.0f} | {ns_fail:.0f} | "
                       f"{fail:.3f} | {per_ok:.0f} |")
    return "\n".join(out)


def main(argv):
    if len(argv) != 1:
        sys.exit("usage: race_table.py RESULTS.json")
    try:
        with open(argv[0]) as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"race_table.py: {argv[0]}: {e}")
    print(table(data))


if __name__ == "__main__":
    main(sys.argv[1:])
