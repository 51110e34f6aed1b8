"""Turn the raw trials of `make compare` into a before/after table and plots.

Input: a CSV with columns clock,variant,trial,possible_cpus,family,benchmark,value,unit.
Each (clock, family, benchmark, possible_cpus) row of the table compares every variant with the
first one: mean ± stddev over trials, % change of the means, and a significance mark from Welch's
t-test at alpha = 0.05: '~' when the difference is within noise, 'n/a' with fewer than 2 trials.
"""
import csv
import math
import statistics
import sys
from collections import OrderedDict

from . import cli

ALPHA = 0.05


def welch_p_value(a, b):
    """Two-sided p-value of Welch's t-test, or None when either side has fewer than 2 trials.

    Identical trials on both sides (the icount clock repeats exactly) give 1.0 when the means
    are equal and 0.0 when they differ: there is no noise to be within."""
    if len(a) < 2 or len(b) < 2:
        return None
    va, vb = statistics.variance(a), statistics.variance(b)
    ma, mb = statistics.fmean(a), statistics.fmean(b)
    se2 = va / len(a) + vb / len(b)
    if se2 == 0:
        return 1.0 if ma == mb else 0.0
    t = (mb - ma) / math.sqrt(se2)
    df = se2 ** 2 / ((va / len(a)) ** 2 / (len(a) - 1) + (vb / len(b)) ** 2 / (len(b) - 1))
    from scipy.stats import t as student_t
    return float(2 * student_t.sf(abs(t), df))


def mark(a, b):
    """'n/a', '~' (not significant) or '' (significant) for the change from a to b."""
    p = welch_p_value(a, b)
    if p is None:
        return "n/a"
    return "~" if p >= ALPHA else ""


def fmt(values):
    if len(values) < 2:
        return f"{values[0]:.3f}"
    return f"{statistics.fmean(values):.3f} ± {statistics.stdev(values):.3f}"


def load(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def group(rows):
    """{(clock, family, benchmark, possible, unit): {variant: [values]}} in first-seen order."""
    groups = OrderedDict()
    for r in rows:
        key = (r["clock"], r["family"], r["benchmark"], int(r["possible_cpus"]), r["unit"])
        groups.setdefault(key, OrderedDict()).setdefault(r["variant"], []).append(float(r["value"]))
    return groups


def table(rows, headings=True):
    """The table of the trials, one per clock (under a '### Clock:' heading, unless headings is
    false: make findings puts one clock's table in a page of its own)."""
    groups = group(rows)
    variants = list(OrderedDict.fromkeys(r["variant"] for r in rows))
    out = []
    for clock in OrderedDict.fromkeys(k[0] for k in groups):
        if headings:
            out.append(f"\n### Clock: {clock}\n")
        head = ["benchmark", "possible CPUs"] + variants
        for v in variants[1:]:
            head.append(f"{v} vs {variants[0]}")
        out.append("| " + " | ".join(head) + " |")
        out.append("|" + "---|" * len(head))
        for key, by_variant in groups.items():
            if key[0] != clock:
                continue
            _, _, bench, possible, unit = key
            cells = [bench, str(possible)]
            cells += [fmt(by_variant[v]) + f" {unit}" if v in by_variant else "-" for v in variants]
            base = by_variant.get(variants[0])
            for v in variants[1:]:
                if base is None or v not in by_variant:
                    cells.append("-")
                    continue
                m0, m1 = statistics.fmean(base), statistics.fmean(by_variant[v])
                change = (m1 - m0) / m0 * 100 if m0 else float("nan")
                sig = mark(base, by_variant[v])
                cells.append(f"{change:+.1f}% {sig}".rstrip())
            out.append("| " + " | ".join(cells) + " |")
    out.append("")
    out.append("Mean ± stddev over trials. '~': within noise by Welch's t-test (p >= 0.05); "
               "'n/a': a single trial.")
    return "\n".join(out)


def plot(rows, outdir):
    """One PNG per (clock, family): mean with stddev bars per variant; against possible CPUs when
    the family was run at several of them, else per benchmark."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    groups = group(rows)
    variants = list(OrderedDict.fromkeys(r["variant"] for r in rows))
    written = []
    for clock, family in OrderedDict.fromkeys((k[0], k[1]) for k in groups):
        keys = [k for k in groups if k[0] == clock and k[1] == family]
        fig, ax = plt.subplots(figsize=(8, 4.5))
        possibles = sorted({k[3] for k in keys})
        if len(possibles) > 1:
            for bench in OrderedDict.fromkeys(k[2] for k in keys):
                for v in variants:
                    pts = [(k[3], groups[k][v]) for k in keys if k[2] == bench and v in groups[k]]
                    if not pts:
                        continue
                    xs = [p for p, _ in pts]
                    ys = [statistics.fmean(vals) for _, vals in pts]
                    es = [statistics.stdev(vals) if len(vals) > 1 else 0 for _, vals in pts]
                    ax.errorbar(xs, ys, yerr=es, marker="o", capsize=3, label=f"{bench} {v}")
            ax.set_xscale("log", base=2)
            ax.set_xlabel("possible CPUs")
        else:
            width = 0.8 / len(variants)
            benches = list(OrderedDict.fromkeys(k[2] for k in keys))
            for i, v in enumerate(variants):
                ys, es = [], []
                for b in benches:
                    vals = next((groups[k][v] for k in keys if k[2] == b and v in groups[k]), [0])
                    ys.append(statistics.fmean(vals))
                    es.append(statistics.stdev(vals) if len(vals) > 1 else 0)
                xs = [j + i * width for j in range(len(benches))]
                ax.bar(xs, ys, width, yerr=es, capsize=3, label=v)
            ax.set_xticks([j + width * (len(variants) - 1) / 2 for j in range(len(benches))])
            ax.set_xticklabels(benches, rotation=20, ha="right")
        ax.set_ylabel(keys[0][4])
        ax.set_title(f"{family} ({clock} clock)")
        ax.legend(fontsize="small")
        fig.tight_layout()
        path = f"{outdir}/{family}-{clock}.png"
        fig.savefig(path, dpi=100)
        plt.close(fig)
        written.append(path)
    return written


def main(argv, prog):
    argv = [prog, *argv]
    if len(argv) not in (2, 3) or argv[1].startswith("-"):
        return cli.usage_error(prog, "expected TRIALS.csv [PLOT_DIR]")
    rows = load(argv[1])
    if not rows:
        raise cli.Error(f"no trials in {argv[1]}")
    print(table(rows))
    if len(argv) == 3:
        for path in plot(rows, argv[2]):
            print(f"plot: {path}", file=sys.stderr)
