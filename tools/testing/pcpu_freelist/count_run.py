#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Instructions per operation of several versions of percpu_freelist.c.

usage: count_run.py [--ops N1,N2] [--cases 'SCENARIO:POSSIBLE ...'] [--gate NAME]
                    [--json F] NAME=BINARY...

Each BINARY is pcpu_freelist_count of one version (the first NAME is the
reference, normally base). Every case runs under valgrind --tool=callgrind
twice, with N1 and N2 operations; the difference of the two counts divided
by N2 - N1 is the exact count of one operation, as the setup is the same in
both runs. Printed per case and version: the instructions of
pcpu_freelist_push() and pcpu_freelist_pop() per operation (inclusive: what
they call is theirs), their sum, and the sum's ratio to the reference.
--gate NAME: NAME's own and ownflip sums must be at most the reference's
(one "ok"/"FAIL" line each; exit 1 on a FAIL).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

DEFAULT_CASES = "own:64 ownflip:64 handoff:64 exhausted:64 exhausted:4096"
FUNCS = ("pcpu_freelist_push", "pcpu_freelist_pop")
GATED = ("own", "ownflip")
LINE = re.compile(r"^\s*([\d,]+) \([ \d.]+%\)\s+(.*?)\s*$")


def parse_annotate(text):
    """callgrind_annotate --inclusive=yes output -> {'total': Ir, FUNC: Ir}:
    the program's total and the inclusive count of each of FUNCS (the
    largest of its lines: a function is listed once per file it spans)."""
    out = {}
    for line in text.splitlines():
        m = LINE.match(line)
        if not m:
            continue
        ir = int(m.group(1).replace(",", ""))
        what = m.group(2)
        if what == "PROGRAM TOTALS":
            out["total"] = ir
            continue
        fn = what.split(" [", 1)[0].rsplit(":", 1)[-1]
        if fn in FUNCS:
            out[fn] = max(out.get(fn, 0), ir)
    if "total" not in out:
        raise ValueError("no PROGRAM TOTALS line in callgrind_annotate's output")
    return out


def per_op(a, b, n1, n2):
    """Counts of two runs of n1 and n2 operations -> per-operation counts."""
    return {k: (b.get(k, 0) - a.get(k, 0)) / (n2 - n1) for k in ("total", *FUNCS)}


def count(binary, case, n):
    scenario, possible = case
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "cg.out")
        args = ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out,
                binary, scenario, possible, str(n)]
        p = subprocess.run(args, capture_output=True, text=True, timeout=600)
        if p.returncode:
            sys.exit(f"count_run.py: {' '.join(args)}: exit {p.returncode}: "
                     f"{p.stderr.strip().splitlines()[-1] if p.stderr.strip() else ''}")
        a = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--tree=none",
                            "--auto=no", "--threshold=100", out],
                           capture_output=True, text=True, check=True)
    return parse_annotate(a.stdout)


def parse_case(text):
    scenario, sep, possible = text.rpartition(":")
    if not sep or scenario not in ("own", "ownflip", "handoff", "exhausted") \
            or not possible.isdigit() or int(possible) < 1:
        sys.exit(f"count_run.py: bad case '{text}' (own|ownflip|handoff|exhausted:POSSIBLE)")
    return (scenario, possible)


def table(cases, versions, res):
    ref = versions[0]
    lines = ["| case | version | push | pop | op | x ref |", "|---|---|---|---|---|---|"]
    for case in cases:
        name = ":".join(case)
        for v in versions:
            r = res[name][v]
            op = r["pcpu_freelist_push"] + r["pcpu_freelist_pop"]
            x = op / (res[name][ref]["pcpu_freelist_push"] + res[name][ref]["pcpu_freelist_pop"])
            lines.append(f"| {name} | {v} | {r['pcpu_freelist_push']:g} | "
                         f"{r['pcpu_freelist_pop']:g} | {op:g} | x{x:.2f} |")
    return "\n".join(lines)


def gate(cases, versions, res, name):
    """Lines and failures: NAME's own/ownflip op counts against the reference's."""
    ref, out, failed = versions[0], [], 0
    for case in cases:
        if case[0] not in GATED:
            continue
        c = ":".join(case)
        op = {v: res[c][v]["pcpu_freelist_push"] + res[c][v]["pcpu_freelist_pop"]
              for v in (ref, name)}
        ok = op[name] <= op[ref]
        failed += not ok
        out.append(f"{'ok' if ok else 'FAIL'}: {c}: {name} {op[name]:g} instructions per "
                   f"op, {ref} {op[ref]:g} (at most the {ref}'s)")
    return out, failed


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ops", default="1000,3000")
    ap.add_argument("--cases", default=DEFAULT_CASES)
    ap.add_argument("--gate")
    ap.add_argument("--json")
    ap.add_argument("versions", nargs="+", metavar="NAME=BINARY")
    a = ap.parse_args(argv)
    try:
        n1, n2 = (int(x) for x in a.ops.split(","))
    except ValueError:
        sys.exit(f"count_run.py: --ops {a.ops}: expected N1,N2")
    if not 0 < n1 < n2:
        sys.exit(f"count_run.py: --ops {a.ops}: expected 0 < N1 < N2")
    cases = [parse_case(c) for c in a.cases.split()]
    bins = {}
    for v in a.versions:
        name, sep, binary = v.partition("=")
        if not sep or not name or not os.access(binary, os.X_OK):
            sys.exit(f"count_run.py: {v}: expected NAME=BINARY, an executable")
        bins[name] = binary
    versions = list(bins)
    if a.gate and a.gate not in bins:
        sys.exit(f"count_run.py: --gate {a.gate}: not one of {' '.join(versions)}")
    res = {}
    for case in cases:
        c = ":".join(case)
        res[c] = {}
        for v in versions:
            print(f"count_run.py: {c} {v} ...", file=sys.stderr)
            res[c][v] = per_op(count(bins[v], case, n1), count(bins[v], case, n2), n1, n2)
    print(table(cases, versions, res))
    failed = 0
    if a.gate:
        lines, failed = gate(cases, versions, res, a.gate)
        print("\n".join(lines))
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"ops": [n1, n2], "reference": versions[0], "gate": a.gate,
                       "results": res}, f, indent=1)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
