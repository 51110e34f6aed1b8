"""6.1's htab-mem against upstream's, run alternated in one VM boot (scripts/compare/htab-mem.sh).

  scripts/readout.py htab-mem-table line IMPL USE_CASE FLAVOUR [FILE]
      one "htab-mem: ..." line from a run of bench
  scripts/readout.py htab-mem-table table [FILE]
      the table of the "htab-mem: ..." lines (of a log, or of scripts/measure.sh's runs file)

A line: "htab-mem: USE_CASE FLAVOUR IMPL OP USAGE PEAK GROWTH", OP in k/s per producer, the rest in
MiB ('-' where the run does not report it: upstream's htab-mem has no map growth), or
"htab-mem: USE_CASE FLAVOUR IMPL fail WHY". The table gives, per use case and flavour, the median
over the rounds of each implementation's op rate and memory usage, and each one's op rate against
upstream's: the ratio of the medians and Welch's t-test on the rounds ('~': within noise, p >= 0.05;
scripts/readout.py stats).
Errors are one line on stderr, "htab_mem_table: ...", exit status 1 (2 for a bad command line).
"""
import statistics
import sys

from . import benchout, cli, stats

UPSTREAM = "upstream"


class TableError(cli.Error):
    pass


def parse(text):
    """{(use_case, flavour): {impl: [(op, usage, peak, growth) or None for a failed run]}}, in order."""
    cells = {}
    for line in text.splitlines():
        f = line.strip().split()
        if not f or f[0] != "htab-mem:":
            continue
        if len(f) < 5:
            raise TableError(f"malformed line: '{line.strip()[:80]}'")
        key, impl = (f[1], f[2]), f[3]
        if f[4] == "fail":
            cells.setdefault(key, {}).setdefault(impl, []).append(None)
            continue
        if len(f) != 8:
            raise TableError(f"malformed line: '{line.strip()[:80]}'")
        try:
            vals = tuple(None if v == "-" else float(v) for v in f[4:8])
        except ValueError:
            raise TableError(f"malformed line: '{line.strip()[:80]}'")
        cells.setdefault(key, {}).setdefault(impl, []).append(vals)
    if not cells:
        raise TableError("no htab-mem: lines")
    return cells


def lines_of(text):
    """The "htab-mem: ..." lines of TEXT: a log of them, or the runs file of scripts/measure.sh (one
    JSON object a line, the lines of each run under "htab_mem")."""
    if not text.lstrip().startswith("{"):
        return text
    return "\n".join(line for run in benchout.read_runs(text) for line in run.get("htab_mem", []))


def median(vals):
    vals = [v for v in vals if v is not None]
    return statistics.median(vals) if vals else None


def table(cells):
    impls = []
    for runs in cells.values():
        for impl in runs:
            if impl not in impls:
                impls.append(impl)
    others = [i for i in impls if i != UPSTREAM]
    head = f"{'use case':<20} {'flavour':<9}"
    for impl in impls:
        head += f" {impl + ' k/s':>16} {'MiB':>6}"
        if impl != UPSTREAM:
            head += f" {'x upstream':>12}"
    lines = [head]
    for (use_case, flavour), runs in cells.items():
        line = f"{use_case:<20} {flavour:<9}"
        up = [r[0] for r in runs.get(UPSTREAM, []) if r]
        for impl in impls:
            ok = [r for r in runs.get(impl, []) if r]
            failed = len(runs.get(impl, [])) - len(ok)
            if not ok:
                line += f" {'fails' if failed else '-':>16} {'':>6}" + (f" {'':>12}" if impl != UPSTREAM else "")
                continue
            op = median([r[0] for r in ok])
            line += f" {op:>16.2f} {benchout.fmt(median([r[1] for r in ok]), 'MiB'):>6}"
            if impl in others:
                if up and median(up):
                    mark = stats.mark([r[0] for r in ok], up)
                    mark = mark if mark != "n/a" else " n/a"
                    line += f" {'x%.2f%s' % (op / median(up), mark):>12}"
                else:
                    line += f" {'-':>12}"
        lines.append(line)
    return "\n".join(lines)


def main(argv, prog):
    if len(argv) >= 4 and argv[0] == "line" and len(argv) <= 5:
        text = benchout.read_input(argv[4] if len(argv) == 5 else None)
        print(benchout.htab_mem_line(argv[1], argv[2], argv[3], text))
        return 0
    if argv and argv[0] == "table" and len(argv) <= 2:
        print(table(parse(lines_of(benchout.read_input(argv[1] if len(argv) == 2 else None)))))
        return 0
    return cli.usage_error(prog, "expected line IMPL USE_CASE FLAVOUR [FILE], or table [FILE]")
