"""make findings: the tables of record of Documentation/findings/*.md, generated from records/.

  scripts/readout.py findings            rewrite every generated table of the findings pages (and of
                                 Documentation/regress.md)
  scripts/readout.py findings --check    exit 1, one line per table that is not what the records give
                                 (make findings CHECK=1)
  scripts/readout.py findings --print PAGE   print one page as it would be written

A page asks for a table with a marker line, and the table goes between it and the end marker:

  <!-- table: GENERATOR ARGUMENT... (make findings) -->
  ...generated: never edit by hand...
  <!-- end of table -->

Each table ends with a line naming its records (links), their commands and clocks. A table reads
the newest record of its kind that holds what it shows (scripts/readout.py records). The generators:

  icount BENCHMARK POSSIBLE...     per base and possible CPU count: base and series means of
                                   BENCHMARK under the icount clock (make compare), series/base
  compare BASE NAME[,NAME...] [BENCHMARK...]
                                   make compare's table (scripts/readout.py stats) of the trials of
                                   the newest compare record of BASE named NAME (of each NAME), these
                                   benchmarks only
  mt NAME VERSION CASE...          the native harness (run.sh mt): per case and base, the median ns
                                   of base and of VERSION in the newest mt record named NAME, ratio
                                   ('+' in a CASE stands for a space: storm:0:64+stormer)
  mt-versions BASE NAME V1,V2,... CASE...
                                   the newest mt record of BASE named NAME: per case, the median
                                   [min-max] ns of each version and its ratio to V1's
  htab-mem BASE                    scripts/compare/htab-mem.sh's table of the newest htab-mem record
  scaling BASE NAME...             make scaling: p1, p2 and p2/p1 of bench A and bench B, per
                                   benchmark, of the newest scaling records named NAME...
  mt-table BASE NAME [COLUMN=V1,V2,...]...
                                   the table.md of the newest mt record of BASE named NAME as
                                   the harness wrote it; with filters, only its first table's
                                   rows whose COLUMN is one of the values (tools/testing/
                                   bpf_lru_list run.sh scan, count)
  nmi BASE NAME                    scripts/nmi-stackmap.sh's table of the newest nmi record of BASE
                                   named NAME: a full stack map popped in NMI, per kernel
  regress                          make regress, per base: the newest record of a whole run, else
                                   of selected tests; its suites' counts and the new failures
  md BASE KIND NAME FILE [ROW...]  the Markdown table lines (those starting with '|') of FILE of the
                                   newest record of BASE, KIND, named NAME, as that tool wrote them
                                   (run.sh count's count.md, the race table of run.sh mt's mt.log);
                                   with ROWs, the header and the rows whose first cell is a ROW
  plot-exhausted NAME FILE         a picture (SVG, FILE beside the page): the median ns of an
                                   exhausted pop against possible CPUs, base and series, per base,
                                   from the newest mt record named NAME; log scales
  plot-icount BENCHMARK FILE POSSIBLE...
                                   a picture: series/base of BENCHMARK's icount means against
                                   possible CPUs, per base (the records of the icount table)

A picture is drawn with matplotlib (Debian's python3-matplotlib, make deps) so that drawing it
again from the same records gives the same bytes (svg.hashsalt fixed, no date): --check compares
it as it compares a table.
"""
import argparse
import csv
import inspect
import os
import re
import statistics
import sys

from . import LAB_ROOT, cli, race_spread, records, regress_results, stats

PAGES = "Documentation/findings"
OTHER_PAGES = ["Documentation/regress.md"]
START = re.compile(r"^<!-- table: (\S+)((?: \S+)*) \(make findings\) -->$")
END = "<!-- end of table -->"


class Error(cli.Error):
    """One line: a marker without its end, a generator that does not exist, no record to read."""


class Tables:
    def __init__(self, root, records_root=None):
        self.root = root
        self.records_root = records_root or os.environ.get("LAB_RECORDS") or os.path.join(root, "records")
        self.bases = records.lab_bases(root)
        self.page = PAGES + "/x.md"    # the page being written: links are relative to it
        self.files = {}    # the pictures drawn: {path from the root: SVG text}

    # ---- helpers ----

    def newest(self, base, kind, name=None, holds=lambda r: True):
        for r in reversed(records.load(self.records_root, base, kind, name)):
            if r.base == base and holds(r):
                return r
        return None

    def link(self, r):
        return "[%s/%s](%s/)" % (r.base, r.id, os.path.relpath(r.path, os.path.join(self.root, os.path.dirname(self.page))))

    def source(self, used):
        """The lines under a table: its records (links) and their commands, each once."""
        used = list({r.path: r for r in used}.values())
        for r in used:
            if r.superseded_by:
                raise Error("%s/%s/%s is superseded by %s: cite that one" % (r.base, r.kind, r.id, r.superseded_by))
        if not used:
            return "No record holds it yet."
        commands = list(dict.fromkeys(r.meta["command"] for r in used))
        return "Record%s (meta.json: command, clock, machine, lab commit, patches measured): %s.  \n%s: %s." % (
            "s" if len(used) > 1 else "", ", ".join(self.link(r) for r in used),
            "Commands" if len(commands) > 1 else "Command", "; ".join("`%s`" % c for c in commands))

    @staticmethod
    def trials(r):
        return list(csv.DictReader(r.read("trials.csv").splitlines()))

    def icount_trials(self, base, bench, possible):
        """The newest compare record of BASE with icount trials of BENCH at POSSIBLE CPUs of both the
        base and the series, and those trials' values: (record, base values, series values), or
        (None, [], [])."""
        def values(r, v):
            return [float(t["value"]) for t in self.trials(r) if (t["clock"], t["benchmark"],
                    t["possible_cpus"], t["variant"]) == ("icount", bench, possible, v)]
        r = self.newest(base, "compare", holds=lambda r: values(r, "base") and values(r, "series"))
        return (r, values(r, "base"), values(r, "series")) if r else (None, [], [])

    # ---- generators: (arguments) -> lines of Markdown ----

    def icount(self, bench, *possible):
        if not possible:
            raise Error("icount BENCHMARK POSSIBLE...: no possible CPU count")
        out = ["| base | possible CPUs | base (M/s) | series (M/s) | series/base | trials |", "|---|---:|---:|---:|---:|---:|"]
        used = []
        for base in self.bases:
            for p in possible:
                r, b, s = self.icount_trials(base, bench, p)
                if r is None:
                    out.append("| %s | %s | not measured | | | |" % (base, p))
                    continue
                used += [r] if r not in used else []
                out.append("| %s | %s | %.3f | %.3f | **×%s** | %d, %d |" % (
                    base, p, statistics.fmean(b), statistics.fmean(s), ratio(statistics.fmean(s) / statistics.fmean(b)),
                    len(b), len(s)))
        return out + ["", self.source(used)]

    def compare(self, base, names, *benchs):
        used = [self.newest(base, "compare", name) for name in names.split(",")]
        if None in used:
            raise Error("no compare record of %s named %s" % (base, names.split(",")[used.index(None)]))
        rows = [t for r in used for t in self.trials(r) if not benchs or t["benchmark"] in benchs]
        if not rows:
            raise Error("%s: no trials of %s" % (names, " ".join(benchs)))
        return stats.table(rows, headings=False).strip("\n").splitlines() + ["", self.source(used)]

    def mt(self, name, version, *cases):
        if not cases:
            raise Error("mt NAME VERSION CASE...: no case")
        found = [(b, self.newest(b, "mt", name)) for b in self.bases]
        found = [(b, r) for b, r in found if r is not None]
        if not found:
            raise Error("no mt record named %s" % name)
        out = ["| case | " + " | ".join("%s: base → %s, ns" % (b, version) for b, _ in found) + " |",
               "|---|" + "---:|" * len(found)]
        for case in (c.replace("+", " ") for c in cases):
            cells = []
            for _, r in found:
                m = mt_stats(r)
                b, v = m.get(case + "/base"), m.get(case + "/" + version)
                cells.append("%s → %s (**×%s**)" % (ns(b[0]), ns(v[0]), ratio(v[0] / b[0])) if b and v else "-")
            out.append("| %s | %s |" % (case, " | ".join(cells)))
        reps = sorted({str(mt_reps(r)) for _, r in found})
        return out + ["", "Medians of %s interleaved repetitions; ×: %s / base." % (" or ".join(reps), version),
                      self.source([r for _, r in found])]

    def mt_versions(self, base, name, versions, *cases):
        """One mt record of one base: a row per case, a column per version (comma-separated, the
        first the reference), each cell the median, its ratio to the reference's and the range."""
        if not cases:
            raise Error("mt-versions BASE NAME VERSIONS CASE...: no case")
        r = self.newest(base, "mt", name)
        if r is None:
            raise Error("no mt record of %s named %s" % (base, name))
        vs = versions.split(",")
        m = mt_stats(r)
        out = ["| case | " + " | ".join(vs) + " |", "|---|" + "---:|" * len(vs)]
        for case in (c.replace("+", " ") for c in cases):
            ref = m.get(case + "/" + vs[0])
            cells = []
            for v in vs:
                x = m.get(case + "/" + v)
                if not x:
                    cells.append("-")
                    continue
                cell = "%s [%s-%s]" % (ns(x[0]), ns(x[1]), ns(x[2]))
                if v != vs[0] and ref and ref[0]:
                    cell += " **×%s**" % ratio(x[0] / ref[0])
                cells.append(cell)
            out.append("| %s | %s |" % (case, " | ".join(cells)))
        return out + ["", "Medians [min-max] of %d interleaved repetitions; ×: median / median of %s." % (
            mt_reps(r), vs[0]), self.source([r])]

    def htab_mem(self, base):
        r = self.newest(base, "htab-mem")
        if r is None:
            raise Error("no htab-mem record of %s" % base)
        lines = r.read("table.txt").rstrip("\n").splitlines()
        head = max(i for i, line in enumerate(lines) if line.startswith("use case "))
        impls = re.findall(r"(\S+) k/s", lines[head])
        out = ["| use case | flavour | " + " | ".join("%s k/s | %s / upstream" % (i, i) for i in impls if i != "upstream")
               + " | upstream k/s |", "|---|---|" + "---:|---:|" * (len(impls) - 1) + "---:|"]
        for line in lines[head + 1:]:
            w = line.split()
            if len(w) < 2:
                continue
            nums = [x for x in w[2:] if not x.startswith("x")]
            marks = [x for x in w[2:] if x.startswith("x")]
            cells = []
            for k, impl in enumerate(i for i in impls if i != "upstream"):
                cells += [nums[2 * k], marks[k].replace("~", " ~")]
            out.append("| %s | %s | %s | %s |" % (w[0], w[1], " | ".join(cells), nums[-2]))
        return out + ["", "Medians of the rounds; '~': not significantly different from upstream's (Welch's t-test).",
                      self.source([r])]

    def scaling(self, base, *names):
        used = [self.newest(base, "scaling", n) for n in names]
        if None in used or not used:
            raise Error("no scaling record of %s named %s" % (base, " ".join(names)))
        out = ["| benchmark | where | A p1 | A p2 | A p2/p1 | B p1 | B p2 | B p2/p1 |", "|---|---|---:|---:|---:|---:|---:|---:|"]
        for r in used:
            rates, benchs = {}, {}
            for line in r.read("scaling.log").splitlines():
                w = line.split()
                if len(w) >= 5 and w[0] == "scaling:":
                    benchs[w[1]] = True
                    if w[4] != "fail":
                        rates.setdefault((w[1], w[2], w[3]), []).append(float(w[4]))
            where = r.meta["name"].replace("scaling-", "")
            for bench in benchs:
                cells = []
                for h in "AB":
                    p1, p2 = rates.get((bench, h, "p1")), rates.get((bench, h, "p2"))
                    cells += ["%.3f" % statistics.fmean(p1), "%.3f" % statistics.fmean(p2),
                              "**%.2f**" % (statistics.fmean(p2) / statistics.fmean(p1))] if p1 and p2 else ["fails", "", ""]
                out.append("| %s | %s | %s |" % (bench, where, " | ".join(cells)))
        return out + ["", "Means of the rounds' Summary rates, M/s; A: the base's bench, B: the series'.",
                      self.source(used)]

    def regress(self):
        out = ["| base | run | suites | base: OK, SKIP, failed | series: OK, SKIP, failed | new failures |",
               "|---|---|---|---|---|---:|"]
        used = []
        for base in self.bases:
            whole = self.newest(base, "regress", "regress", holds=lambda r: not r.meta.get("params", {}).get("allow"))
            r = whole or self.newest(base, "regress", "regress")
            if r is None:
                out.append("| %s | not measured | | | | |" % base)
                continue
            used.append(r)
            allow = r.meta.get("params", {}).get("allow", "")
            broken, _, _, suites = regress_results.compare(r.file("base"), r.file("series"), allow)
            counts = [regress_counts(r.file(side), suites) for side in ("base", "series")]
            out.append("| %s | %s | %s | %s | %s | **%d** |" % (
                base, "every test" if not allow else "%d selected test_progs tests" % len(allow.split(",")),
                ", ".join(suites), counts[0], counts[1], len(broken)))
        return out + ["", "Tests and subtests; failed: FAIL, CRASH, HANG, TIMEOUT and the like.", self.source(used)]

    def race_spread(self, base, prefix, version):
        """The race cases of the mt records of base named PREFIX*: version's ratio to base run by run."""
        used = [r for r in records.load(self.records_root, base, "mt")
                if r.base == base and r.meta["name"].startswith(prefix) and r.has("results.json")]
        if not used:
            raise Error("no mt record of %s named %s*" % (base, prefix))
        rows = race_spread.spread([r.json("results.json") for r in used], "base")
        out = ["| case | %s / base, successful inserts, run by run | range |" % version, "|---|---|---|"]
        for case, v, ratios, _, _ in rows:
            if v == version:
                out.append("| %s | %s | **×%.2f-×%.2f** |" % (case, " ".join("×%.2f" % x for x in ratios),
                                                             min(ratios), max(ratios)))
        return out + ["", "Each run: medians of %s interleaved repetitions." % " or ".join(
            sorted({str(mt_reps(r)) for r in used})), self.source(used)]

    def race_phase(self, base, name, hold):
        """The newest tally mt record of base named NAME: per period P of the race cases with hold H,
        successful inserts (series / base) and remote locks per insert (both CPUs) of each design."""
        r = self.newest(base, "mt", name, lambda r: r.has("results.json") and "tally" in r.json("results.json"))
        if r is None:
            raise Error("no tally mt record of %s named %s" % (base, name))
        d = r.json("results.json")
        periods = sorted({int(k.split(":")[2]) for k in d["ns"] if k.startswith("race:%s:" % hold)})
        if not periods:
            raise Error("%s: no race case with H = %s" % (name, hold))

        stats = mt_stats(r)
        out = ["| P, ns | successful inserts/µs, base → series | remote locks per insert, base → series |",
               "|---:|---|---|"]
        for p in periods:
            case = "race:%s:%d:64" % (hold, p)
            ok = {v: stats["%s ok/us/%s" % (case, v)][0] for v in ("base", "series")}
            rl = {v: sum(statistics.median(d["tally"]["%s/c%d_rlock/%s" % (case, c, v)]) for c in (0, 1))
                  for v in ("base", "series")}
            out.append("| %d | %.2f → %.2f (**×%.2f**) | %.3f → %.3f |" % (
                p, ok["base"], ok["series"], ok["series"] / ok["base"], rl["base"], rl["series"]))
        return out + ["", "H = %s, 64 possible CPUs; medians of %d interleaved repetitions of the tally build."
                      % (hold, d["reps"]), self.source([r])]

    # ---- pictures: an SVG file beside the page, and the lines that show it ----

    def picture(self, name, draw, alt, used):
        """The SVG that draw(figure) makes, kept in self.files for main() to write or check; the
        page's lines: the image, then its records."""
        if not re.fullmatch(r"[a-z0-9][a-z0-9-]*\.svg", name):
            raise Error("%s: a picture's file is NAME.svg (a-z, 0-9, -)" % name)
        import io
        import matplotlib
        matplotlib.use("svg")
        import matplotlib.pyplot as plt
        with matplotlib.rc_context({"svg.hashsalt": "lab", "svg.fonttype": "path", "font.size": 9}):
            fig = plt.figure(figsize=(6.4, 3.6))
            try:
                draw(fig)
                fig.tight_layout()
                buf = io.StringIO()
                fig.savefig(buf, format="svg", metadata={"Date": None})
            finally:
                plt.close(fig)
        self.files[os.path.join(os.path.dirname(self.page), name)] = buf.getvalue()
        return ["![%s](%s)" % (alt, name), "", self.source(used)]

    def plot_exhausted(self, name, file):
        found = [(b, self.newest(b, "mt", name)) for b in self.bases]
        found = [(b, r) for b, r in found if r is not None]
        if not found:
            raise Error("no mt record named %s" % name)
        series = []
        for b, r in found:
            m = mt_stats(r)
            for version in ("base", "series"):
                points = sorted((int(k.split("/")[0].split(":")[1]), v[0]) for k, v in m.items()
                                if re.fullmatch(r"exhausted:\d+/%s" % version, k))
                if points:
                    series.append((b, version, points))
        if not series:
            raise Error("%s: no exhausted:N case" % name)

        def draw(fig):
            ax = fig.add_subplot()
            colors = {b: "C%d" % i for i, (b, _) in enumerate(found)}
            for b, version, points in series:
                ax.plot([p for p, _ in points], [v for _, v in points], marker="o" if version == "series" else "s",
                        linestyle="-" if version == "series" else "--", color=colors[b], label="%s %s" % (b, version))
            cpu_axes(ax, {p for _, _, points in series for p, _ in points}, "ns per exhausted pop (median)",
                     "Pop from an exhausted freelist: native harness, run.sh mt")
            ax.legend(ncol=2, fontsize=7)
        return self.picture(file, draw, "ns per exhausted pop against possible CPUs, base and series, log scales",
                            [r for _, r in found])

    def plot_icount(self, bench, file, *possible):
        if not possible:
            raise Error("plot-icount BENCHMARK FILE POSSIBLE...: no possible CPU count")
        lines, used = [], []
        for base in self.bases:
            points = []
            for p in possible:
                r, b, s = self.icount_trials(base, bench, p)
                if r is None:
                    continue
                used += [r] if r not in used else []
                points.append((int(p), statistics.fmean(s) / statistics.fmean(b)))
            if points:
                lines.append((base, points))
        if not lines:
            raise Error("no compare record with icount trials of %s" % bench)

        def draw(fig):
            ax = fig.add_subplot()
            for base, points in lines:
                ax.plot([p for p, _ in points], [v for _, v in points], marker="o", label=base)
            cpu_axes(ax, {p for _, points in lines for p, _ in points}, "series / base (icount rate)",
                     "%s under QEMU -icount: series over base" % bench)
            ax.legend(fontsize=7)
        return self.picture(file, draw, "series/base of %s's icount rate against possible CPUs" % bench, used)

    def nmi(self, base, name):
        r = self.newest(base, "nmi", name)
        if r is None:
            raise Error("no nmi record of %s named %s" % (base, name))
        return r.read("table.md").rstrip("\n").splitlines() + ["", self.source([r])]

    def md(self, base, kind, name, file, *rows):
        r = self.newest(base, kind, name)
        if r is None:
            raise Error("no %s record of %s named %s" % (kind, base, name))
        try:
            lines = [line for line in r.read(file).splitlines() if line.startswith("|")]
        except OSError:
            raise Error("%s/%s: no file %s" % (r.base, r.id, file)) from None
        if rows:
            lines = lines[:2] + [line for line in lines[2:] if line.split("|")[1].strip() in rows]
        if len(lines) < 3:
            raise Error("%s/%s: %s holds no Markdown table%s" % (r.base, r.id, file, " with those rows" if rows else ""))
        return lines + ["", self.source([r])]

    def mt_table(self, base, name, *filters):
        r = self.newest(base, "mt", name, lambda r: r.has("table.md"))
        if r is None:
            raise Error("no mt record of %s named %s with a table.md" % (base, name))
        lines = r.read("table.md").rstrip("\n").splitlines()
        if filters:
            first = next((i for i, line in enumerate(lines) if line.startswith("|")), None)
            if first is None or first + 1 >= len(lines):
                raise Error("%s: table.md has no table" % name)
            end = next((i for i in range(first, len(lines)) if not lines[i].startswith("|")), len(lines))
            head = [c.strip() for c in lines[first].strip("|").split("|")]
            want = []
            for f in filters:
                col, sep, values = f.partition("=")
                if not sep or col not in head:
                    raise Error("%s: no column %s (COLUMN=V1,V2,...; columns: %s)" % (f, col, ", ".join(head)))
                want.append((head.index(col), values.split(",")))
            rows = [line for line in lines[first + 2:end]
                    if all([c.strip() for c in line.strip("|").split("|")][i] in vs for i, vs in want)]
            if not rows:
                raise Error("%s %s: no row" % (name, " ".join(filters)))
            lines = lines[first:first + 2] + rows
        return lines + ["", self.source([r])]

    GENERATORS = {"icount": icount, "md": md, "compare": compare, "mt": mt, "mt-versions": mt_versions, "htab-mem": htab_mem,
                  "scaling": scaling, "nmi": nmi, "regress": regress, "race-spread": race_spread,
                  "race-phase": race_phase, "plot-exhausted": plot_exhausted, "plot-icount": plot_icount,
                  "mt-table": mt_table}

    def generate(self, generator, args):
        if generator not in self.GENERATORS:
            raise Error("no generator %s (%s)" % (generator, ", ".join(self.GENERATORS)))
        f = self.GENERATORS[generator]
        try:
            inspect.signature(f).bind(self, *args)
        except TypeError:
            raise Error("%s %s: wrong arguments (scripts/readout.py findings -h)" % (generator, " ".join(args))) from None
        return f(self, *args)


def cpu_axes(ax, cpus, ylabel, title):
    """A picture's axes: possible CPUs (log 2, a tick at each measured count) against a log scale."""
    cpus = sorted(cpus)
    ax.set_xscale("log", base=2)
    ax.set_xticks(cpus, [str(p) for p in cpus])
    ax.minorticks_off()
    ax.set_yscale("log")
    ax.set_xlabel("possible CPUs")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(True, which="major", linewidth=0.4)


def ratio(x):
    return "%.2f" % x if x >= 0.1 else "%.2g" % x


def ns(x):
    return "%.1f" % x


def mt_stats(r):
    """{case/version: (median, min, max)} of a run.sh mt record (every repetition, else its table)."""
    if r.has("results.json"):
        return {k: (statistics.median(v), min(v), max(v)) for k, v in r.json("results.json")["ns"].items() if v}
    s = r.json("summary.json")
    return {k: (m, *s["ranges"][k]) for k, m in s["medians"].items()}


def mt_reps(r):
    return (r.json("results.json") if r.has("results.json") else r.json("summary.json"))["reps"]


def regress_counts(kdir, suites):
    """OK, SKIP and failed in KDIR's results of SUITES, the suites compared: a series run of fewer
    suites than its recorded base's (-B) counts the same suites on both sides."""
    c = {"OK": 0, "SKIP": 0, "bad": 0}
    for name, d in regress_results.load(kdir).items():
        if name not in suites:
            continue
        for k, v in regress_results.counts(d).items():
            if k in c:
                c[k] += v
    return "%d, %d, %d" % (c["OK"], c["SKIP"], c["bad"])


def render(text, tables, where):
    """The page with each table between its markers generated anew."""
    lines = text.split("\n")
    out, i = [], 0
    while i < len(lines):
        out.append(lines[i])
        m = START.match(lines[i])
        if m:
            try:
                end = lines.index(END, i + 1)
            except ValueError:
                raise Error("%s:%d: a table without its '%s' line" % (where, i + 1, END)) from None
            try:
                out += tables.generate(m.group(1), m.group(2).split())
            except Error as e:
                raise Error("%s:%d: %s" % (where, i + 1, e)) from None
            out.append(END)
            i = end
        elif lines[i].startswith("<!-- table:"):
            raise Error("%s:%d: expected '<!-- table: GENERATOR ARGUMENT... (make findings) -->'" % (where, i + 1))
        i += 1
    return "\n".join(out)


def pages(root):
    """The pages with tables of record: every finding, and make regress's page."""
    d = os.path.join(root, PAGES)
    found = sorted(os.path.join(PAGES, f) for f in os.listdir(d) if f.endswith(".md")) if os.path.isdir(d) else []
    return found + [p for p in OTHER_PAGES if os.path.isfile(os.path.join(root, p))]


def main(argv, prog):
    ap = cli.parser(prog, __doc__)
    ap.add_argument("--check", action="store_true", help="exit 1 when a table is not what the records give")
    ap.add_argument("--print", metavar="PAGE", help="print one page as it would be written")
    ap.add_argument("--root", default=LAB_ROOT, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    tables = Tables(args.root)
    todo = [args.print] if args.print else pages(args.root)
    stale = []
    for page in todo:
        path = os.path.join(args.root, page)
        if not os.path.isfile(path):
            raise Error("%s: no such page" % page)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        tables.page = page
        new = render(text, tables, page)
        if args.print:
            sys.stdout.write(new)
        elif new != text and args.check:
            old_blocks, new_blocks = blocks(text), blocks(new)
            stale += ["%s:%d: the table '%s' is not what the records give" % (page, n, head)
                      for (n, head, body), (_, _, want) in zip(old_blocks, new_blocks) if body != want] or \
                     ["%s: differs from what make findings writes" % page]
        elif new != text:
            with open(path, "w", encoding="utf-8") as f:
                f.write(new)
            print("%s: tables rewritten" % page, file=sys.stderr)
    for path, svg in sorted(tables.files.items()):
        full = os.path.join(args.root, path)
        have = None
        if os.path.isfile(full):
            with open(full, encoding="utf-8") as f:
                have = f.read()
        if have == svg or args.print:
            continue
        if args.check:
            stale.append("%s: the picture is not what the records give" % path)
        else:
            with open(full, "w", encoding="utf-8") as f:
                f.write(svg)
            print("%s: drawn" % path, file=sys.stderr)
    for line in stale:
        print(line)
    if stale:
        print("%d table(s) not current: run make findings" % len(stale), file=sys.stderr)
    return 1 if stale else 0


def blocks(text):
    """(line number, marker, body) of each generated table of a page."""
    lines, out = text.split("\n"), []
    for i, line in enumerate(lines):
        m = START.match(line)
        if m and END in lines[i + 1:]:
            end = lines.index(END, i + 1)
            out.append((i + 1, (m.group(1) + m.group(2)), lines[i + 1:end]))
    return out
