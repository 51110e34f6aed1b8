# SPDX-License-Identifier: GPL-2.0-only
"""The spread of race cases over several runs of mt_run.py, and what moves with it.

usage: scripts/readout.py race-spread [--ref NAME] RESULTS.json...

Each RESULTS.json is one run (mt_run.py --json; a record's results.json). For each
race case and version other than the reference (default: the first version), prints
the ratio of the medians of successful inserts per us to the reference's, run by run,
and its range; then, over every repetition of every run, the correlation (Pearson's
r) of a version's successful inserts per us with its moves per us (successes on an
element another CPU freed last) and with its failed inserts per us. A loss that
tracks the moves is the element changing hands; one that does not is something else.
"""
import json
import statistics

from . import cli


def pearson(xs, ys):
    if len(xs) < 3:
        return float("nan")
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    return sxy / (sxx * syy) ** 0.5 if sxx and syy else float("nan")


def load(path):
    with open(path) as f:
        return json.load(f)


def spread(runs, ref=None):
    """Rows: (case, version, [ratio per run], r(ok, moves), r(ok, fail))."""
    versions = runs[0]["versions"]
    ref = ref or versions[0]
    if ref not in versions:
        raise ValueError(f"no version {ref} in the runs ({' '.join(versions)})")
    cases = [k[:-len(f" ok/us/{ref}")] for k in runs[0]["ns"]
             if k.endswith(f" ok/us/{ref}")]
    out = []
    for case in cases:
        for v in versions:
            if v == ref:
                continue
            ratios, ok, moves, fail = [], [], [], []
            for run in runs:
                ns = run["ns"]
                ratios.append(statistics.median(ns[f"{case} ok/us/{v}"]) /
                              statistics.median(ns[f"{case} ok/us/{ref}"]))
                ok += ns[f"{case} ok/us/{v}"]
                moves += ns[f"{case} moves/us/{v}"]
                fail += ns[f"{case} fail/us/{v}"]
            out.append((case, v, ratios, pearson(ok, moves), pearson(ok, fail)))
        r = [run["ns"] for run in runs]
        ok = [x for ns in r for x in ns[f"{case} ok/us/{ref}"]]
        out.append((case, ref, None,
                    pearson(ok, [x for ns in r for x in ns[f"{case} moves/us/{ref}"]]),
                    pearson(ok, [x for ns in r for x in ns[f"{case} fail/us/{ref}"]])))
    return out


def main(argv, prog):
    ap = cli.parser(prog, __doc__)
    ap.add_argument("--ref")
    ap.add_argument("results", nargs="+")
    a = ap.parse_args(argv)
    try:
        runs = [load(p) for p in a.results]
        rows = spread(runs, a.ref)
    except (OSError, ValueError, KeyError) as e:
        raise cli.Error(str(e)) from None
    print(f"{len(runs)} runs; x = median ok/us / median of the reference, run by run; "
          "r = correlation over every repetition")
    print(f"{'case':24} {'version':14} {'x per run':40} {'range':13} {'r(ok,moves)':>11} {'r(ok,fail)':>10}")
    for case, v, ratios, rm, rf in rows:
        if ratios is None:
            xs, rng = "(reference)", ""
        else:
            xs = " ".join(f"x{x:.2f}" for x in ratios)
            rng = f"x{min(ratios):.2f}-x{max(ratios):.2f}"
        print(f"{case:24} {v:14} {xs:40} {rng:13} {rm:11.2f} {rf:10.2f}")
