"""The lab's one reader of the BPF selftests `bench` output, and of the lab's own result lines.

bench prints, per run: "Setting up benchmark 'NAME'...", progress lines ("Iter N (DELTAus): ..."),
what a benchmark adds in its report_final (the full-update rework's "cpuN updates R" and
"Outcomes (...): ..." lines, its race mode's line per role, htab-mem's "Memory (...)" and
"Expected ..." lines, "WARNING ..."),
and one final line with mean ± stddev, in the format of its report_final:

  Summary: hits M ± SM/s (PM/prod), drops M ± SM/s, total operations M ± SM/s   hits_drops
  Summary: throughput M ± S M ops/s (PM ops/prod), latency L ns/op                ops, lpm-trie
  Summary: hits throughput M ± S M ops/s, hits latency L ns/op, important_hits throughput ...
  Summary: per-prod-op M ± Sk/s, memory usage M ± SMiB, peak memory usage PMiB   htab-mem, upstream
  Summary: ... peak memory usage PMiB, map growth M ± SMiB, peak map growth PMiB  htab-mem, 6.1 series
  Summary: per-prod-op M ± Sk/s, memory growth M ± SMiB, peak growth PMiB        htab-mem, 6.1 before
  Summary: creates M ± Sk/s (Pk/prod), N total                                   local-storage-create
  Summary: N false hits of T total operations. Percentage = P %                  bloom false rate
  Summary: total trans N MB ± R MB/s                                             sockmap (7.3)
  SUMMARY tasks_trace grace period latency<TAB>avg M us<TAB>stddev S us            rcu tasks trace
  SUMMARY ticks per tasks_trace grace period<TAB>avg M<TAB>stddev S

The runners of scripts/guest/ print each run of bench as it came, between two markers, and the
host reads it here, once (run, below):

  lab-raw: bench NAME FAMILY                  a benchmark of the registry (scripts/guest/suite.sh)
  lab-raw: scaling BENCH A|B pN               make scaling's runs (scripts/guest/scaling-rounds.sh)
  lab-raw: htab-mem IMPL USE_CASE FLAVOUR     htab-mem against upstream's (scripts/guest/htab-mem-rounds.sh)
  ...bench's output...
  lab-raw-end: rc=N                           bench's exit status

A raw run without its end marker (the VM died in it) gives nothing. The lines the host makes of
them, which older logs hold as the guest printed them and which are read as well:

  lab-result: NAME FAMILY MEAN STDDEV UNIT
  lab-memory: NAME FAMILY MEAN STDDEV PEAK MiB        htab-mem's memory usage (upstream's figure)
  lab-map-growth: NAME FAMILY MEAN STDDEV PEAK MiB    the hash map's own growth (6.1's series)
  lab-missing: NAME FAMILY WHY                        no result: skipped, FAILED, no summary line
                                                      (suite.sh prints those it skips)

and those of the other runners of scripts/guest/: "scaling: BENCH A|B pN MEAN STDDEV" (or
"... pN fail WHY") and "htab-mem: ..." (scripts/readout.py htab-mem-table).

scripts/measure.sh, the lab's one measurement pipeline, appends one JSON object a line per run to a
runs file (run, below): what ran where (runner, arguments, kernel and bench commits, clock, the
caller's labels, exit status) and its results read from those lines. The tables are printed from
that file (summary, trials-csv, scaling).

and, after its lab-result line, for each role line of the full-update race mode
("ROLE inserts M ± SM/s, -E2BIG M ± SM/s, failed insert T ± S ns", T "-" when none failed),
a lab-result line per metric, named NAME.ROLE.inserts, NAME.ROLE.e2big (M/s) and
NAME.ROLE.failed-insert (ns; none when no insert failed).

Usage: scripts/readout.py benchout COMMAND ... (bench output on FILE or standard input):
  rate [-m METRIC] [FILE]               "MEAN STDDEV UNIT" of the Summary's first measured metric
                                        (or of METRIC, e.g. hits)
  lab NAME FAMILY [FILE]                the lab-result line (and lab-memory, lab-map-growth lines)
                                        of one run
  json [FILE]                           one JSON object a line, per run of bench in FILE
  run [-a RUNS] LOG [KEY=VALUE...]
                                        the JSON line of one run of scripts/measure.sh: KEY=VALUE
                                        fields (label.KEY=VALUE: the caller's labels), and the
                                        results of the runner's output in LOG; -a: appended to
                                        RUNS, and the run's status printed instead (its exit
                                        status, 1 if a benchmark gave no result)
  summary [RUNS]                        make bench's summary table of the suite's runs in RUNS
  report RUNS TABLE                     make bench's end, from one reading of RUNS: the summary
                                        table written to TABLE, and two lines printed, the last
                                        run's bench commit (of its field bench, VARIANT=COMMIT)
                                        and the runs' clocks (as clock prints them)
  trials-csv [RUNS]                     make compare's trials.csv, from the labels clock, variant,
                                        trial and possible of each run in RUNS
  scaling [RUNS]                        make scaling's table of the scaling runs in RUNS
  clock [RUNS]                          the clocks of the runs in RUNS, in order, comma-separated
  field KEY [RUNS]                      the field KEY of the last run in RUNS
Errors are one line on stderr, "readout.py benchout: error: ...", exit status 1 (2 for a bad
command line).
"""
import csv
import json
import re
import sys

from . import cli

NUM = r"-?\d+(?:\.\d+)?"
# Units as bench prints them: "M/s", "M/prod", "k/s", "M ops/s", "K ops/prod", "ns/op", "MiB", "MB"
UNIT = r"(?:[A-Za-z]* ?ops/(?:s|prod)|[A-Za-z]+/[A-Za-z]+|[A-Za-z]+|%)"
# One "name mean [± stddev]unit [(per-producer)]" field of a Summary or Iter line
FIELD = re.compile(
    r"(?P<name>[A-Za-z_][\w.-]*(?: [A-Za-z_][\w.-]*)*)\s+(?P<mean>" + NUM + r")"
    r"(?:\s*±\s*(?P<stddev>" + NUM + r"))?\s*(?P<unit>" + UNIT + r")?"
    r"(?:\s*\(\s*(?P<per_prod>" + NUM + r")\s*(?P<per_prod_unit>" + UNIT + r")\))?")
# "N total" (local-storage-create): a count after its value
COUNT_FIELD = re.compile(r"(?P<mean>\d+) (?P<name>[A-Za-z_]\w*)")
SEPARATOR = re.compile(r"\s*,?\s*")
FALSE_HITS = re.compile(r"^(\d+) false hits of (\d+) total operations\. Percentage = +(" + NUM + r") %$")
SOCKMAP = re.compile(r"^total trans +(\d+) MB ± +(" + NUM + r") MB/s$")
UPPER_SUMMARY = re.compile(r"^SUMMARY (?P<name>[^\t]+?)\s*\tavg (?P<mean>" + NUM + r")(?: (?P<unit>\S+))?"
                           r"\tstddev (?P<stddev>" + NUM + r")(?: \S+)?$")
ITER = re.compile(r"^Iter +(\d+) \( *(" + NUM + r")us\): (.*)$")
SETUP = re.compile(r"^Setting up benchmark '([^']*)'\.\.\.$")
PER_CPU = re.compile(r"^cpu(\d+) +(\w+) +(" + NUM + r")(" + UNIT + r")$")
OUTCOMES = re.compile(r"^Outcomes \((?P<context>[^)]*)\): (?P<counts>.*)$")
# The full-update race mode's line per role (7.3 series); a line that starts with a role's name
# but does not read as this is an error, not a line to skip
ROLES = ("churners", "inserters")
ROLE = re.compile(r"^(?P<role>" + "|".join(ROLES) + r") +inserts +(?P<inserts>" + NUM + r") ± (?P<inserts_sd>"
                  + NUM + r")M/s, -E2BIG +(?P<e2big>" + NUM + r") ± (?P<e2big_sd>" + NUM + r")M/s, "
                  r"failed insert +(?:(?P<failed_ns>" + NUM + r") ± (?P<failed_ns_sd>" + NUM + r")|-) ns$")
# test_progs' and test_verifier's last line, in logs that hold bench runs too: not bench's
TEST_SUMMARY = re.compile(r"^Summary: \d+(?:/\d+)? PASSED, \d+ SKIPPED, \d+ FAILED")
NOTE = re.compile(r"^(Memory \(|Expected )")
LAB_RESULT = re.compile(r"^lab-result: (\S+) (\S+) (" + NUM + r") (" + NUM + r"|-) (.+)$")
LAB_MEMORY = re.compile(r"^lab-(memory|map-growth): (\S+) (\S+) (" + NUM + r") (" + NUM + r") (" + NUM +
                        r") MiB$")
LAB_MISSING = re.compile(r"^lab-missing: (\S+) (\S+) (.+)$")
RAW_START = re.compile(r"^lab-raw: (bench|scaling|htab-mem) (\S+(?: \S+)*)$")
# (searched: after a run killed mid-line, its marker follows that line's start)
RAW_END = re.compile(r"lab-raw-end: rc=(\d+)$")
# the first line of a failed scaling run that says why
SCALING_WHY = re.compile(r"fail|error|denied|not supported", re.I)
SCALING = re.compile(r"^scaling: (\S+) ([AB]) p(\d+) (?:(" + NUM + r") (" + NUM + r"|-)|fail ?(.*))$")


class BenchOutputError(cli.Error):
    """Input that is not what bench (or the lab) prints; the message is one line."""


def metric(name, mean, stddev=None, unit="", **extra):
    m = {"name": name, "mean": float(mean), "stddev": None if stddev is None else float(stddev),
         "unit": unit}
    m.update(extra)
    return m


def parse_fields(text, what):
    """The "name mean [± stddev]unit [(per-producer)]" fields of TEXT, in order. Every character
    of TEXT must belong to a field or a separator: anything else is an error naming it."""
    fields, pos = [], 0
    text = text.rstrip()
    while pos < len(text):
        pos = SEPARATOR.match(text, pos).end()
        if pos >= len(text):
            break
        m = FIELD.match(text, pos)
        if m:
            extra = {}
            if m.group("per_prod") is not None:
                extra = {"per_prod": float(m.group("per_prod")),
                         "per_prod_unit": m.group("per_prod_unit")}
            fields.append(metric(m.group("name"), m.group("mean"), m.group("stddev"),
                                 m.group("unit") or "", **extra))
            pos = m.end()
            continue
        m = COUNT_FIELD.match(text, pos)
        if m and (m.end() == len(text) or text[m.end()] in ", "):
            fields.append(metric(m.group("name"), m.group("mean")))
            pos = m.end()
            continue
        raise BenchOutputError(f"{what}: cannot read '{text[pos:pos + 40]}'")
    if not fields:
        raise BenchOutputError(f"{what}: no values")
    return fields


def parse_summary(line):
    """The metrics of one final line of bench ("Summary: ..." or "SUMMARY ..."), in order."""
    if line.startswith("SUMMARY "):
        m = UPPER_SUMMARY.match(line)
        if not m:
            raise BenchOutputError(f"unknown SUMMARY line: '{line[:80]}'")
        return [metric(m.group("name"), m.group("mean"), m.group("stddev"), m.group("unit") or "")]
    if not line.startswith("Summary: "):
        raise BenchOutputError(f"not a Summary line: '{line[:80]}'")
    text = line[len("Summary: "):].strip()
    m = FALSE_HITS.match(text)
    if m:
        return [metric("false hits percentage", m.group(3), unit="%"),
                metric("false hits", m.group(1)), metric("total operations", m.group(2))]
    m = SOCKMAP.match(text)
    if m:
        # bench_sockmap prints the total, then the mean rate after its "±"
        return [metric("trans rate", m.group(2), unit="MB/s"),
                metric("total trans", m.group(1), unit="MB")]
    return parse_fields(text, "Summary")


def parse_outcomes(text):
    """ "ok 0, -E2BIG 5, -ENOMEM 0, other error 0" (full-update) or "updates ok 5, -EEXIST 0, ...;
    deletes ok 5, ...; out of turn 0" (htab-mem): {name: count}, a group's first word before the
    names of its other counts."""
    counts = {}
    groups = [g.strip() for g in text.split(";")]
    for g in groups:
        prefix = ""
        for i, item in enumerate(x.strip() for x in g.split(",")):
            m = re.match(r"^(.*\S) +(\d+)$", item)
            if not m:
                raise BenchOutputError(f"Outcomes: cannot read '{item}'")
            name = m.group(1)
            if len(groups) > 1 and i == 0 and " " in name and not name.startswith("out of"):
                prefix, _, name = name.partition(" ")
            counts[f"{prefix} {name}".strip()] = int(m.group(2))
    return counts


def new_run(name=None):
    return {"benchmark": name, "summary": None, "summary_line": None, "iterations": [],
            "per_cpu": [], "roles": [], "outcomes": None, "warnings": [], "notes": []}


def parse(text):
    """Every run of bench in TEXT, each a dict, in order. A run starts at "Setting up benchmark"
    (or at the first line of bench's) and ends with its Summary line: bench prints that last,
    so a log of several runs with their setup lines left out still splits right."""
    runs, run = [], new_run()

    def start(name=None):
        nonlocal run
        if run["summary"] or run["iterations"] or run["benchmark"] or run["outcomes"]:
            runs.append(run)
        run = new_run(name)

    for raw in text.splitlines():
        line = raw.rstrip("\r")
        m = SETUP.match(line)
        if m:
            start(m.group(1))
            continue
        if TEST_SUMMARY.match(line):
            continue
        upper = line.startswith("SUMMARY ")
        if line.startswith("Summary: ") or upper:
            metrics = parse_summary(line)
            if run["summary"] and upper and run["summary_line"].startswith("SUMMARY "):
                run["summary"] += metrics  # rcu tasks trace: two SUMMARY lines
                continue
            if run["summary"]:
                start()
            run["summary"] = metrics
            run["summary_line"] = line
            continue
        m = ITER.match(line)
        if m:
            if run["summary"]:
                start()
            run["iterations"].append({"iter": int(m.group(1)), "delta_us": float(m.group(2)),
                                      "metrics": parse_fields(m.group(3), f"Iter {m.group(1)}")})
            continue
        m = PER_CPU.match(line)
        if m:
            if run["summary"]:
                start()
            run["per_cpu"].append({"cpu": int(m.group(1)), "name": m.group(2),
                                   "value": float(m.group(3)), "unit": m.group(4)})
            continue
        if line.startswith(tuple(r + " " for r in ROLES)):
            m = ROLE.match(line)
            if not m:
                raise BenchOutputError(f"cannot read the role line '{line[:80]}'")
            if run["summary"]:
                start()
            run["roles"].append(
                {k: (v if k == "role" else None if v is None else float(v)) for k, v in m.groupdict().items()})
            continue
        m = OUTCOMES.match(line)
        if m:
            if run["summary"]:
                start()
            run["outcomes"] = {"context": m.group("context"),
                               "counts": parse_outcomes(m.group("counts"))}
            continue
        if line.startswith("WARNING"):
            run["warnings"].append(line)
        elif NOTE.match(line):
            run["notes"].append(line)
    start()
    return runs


def main_metric(run, name=None):
    """The metric NAME of RUN's Summary, or its first one with a stddev (the rate bench measures)."""
    if not run["summary"]:
        raise BenchOutputError(f"no Summary line from bench '{run['benchmark'] or '?'}'")
    for m in run["summary"]:
        if name is None and m["unit"] or m["name"] == name:
            return m
    if name is None:
        return run["summary"][0]
    raise BenchOutputError(f"no '{name}' on the Summary line: '{run['summary_line']}'")


def _memory_pair(run, pairs):
    by_name = {m["name"]: m for m in run["summary"] or []}
    for mean, peak in pairs:
        if mean in by_name and peak in by_name:
            return {"mean": by_name[mean]["mean"], "stddev": by_name[mean]["stddev"],
                    "peak": by_name[peak]["mean"], "kind": mean}
    return None


def memory(run):
    """htab-mem's memory usage on its Summary line, {"mean", "stddev", "peak", "kind"} in MiB, or
    None: "memory usage M ± S, peak memory usage P", upstream's figure (memory.current of the
    cgroup that holds the benchmark process), which 6.1's series prints too."""
    return _memory_pair(run, (("memory usage", "peak memory usage"),))


def map_growth(run):
    """The hash map's own growth, which only 6.1's series reports: "map growth M ± S, peak map
    growth P", or, before it printed upstream's figure too, "memory growth M ± S, peak growth P";
    None otherwise."""
    return _memory_pair(run, (("map growth", "peak map growth"), ("memory growth", "peak growth")))


def one_run(text):
    runs = parse(text)
    with_summary = [r for r in runs if r["summary"]]
    if not with_summary:
        last = [line for line in text.splitlines() if line.strip()]
        raise BenchOutputError("no Summary line in bench's output" +
                               (f" (last line: '{last[-1][:80]}')" if last else " (empty)"))
    if len(with_summary) > 1:
        raise BenchOutputError(f"{len(with_summary)} runs of bench with a Summary line, expected one")
    return with_summary[0]


def fmt(x, unit=""):
    """A value as bench printed it: 3 decimals, 2 for k/s and MiB (htab-mem), 1 for ns (the race
    mode's failed insert); '-' for none."""
    if x is None:
        return "-"
    if float(x).is_integer() and unit == "":
        return str(int(x))
    if unit == "ns":
        return f"{x:.1f}"
    return f"{x:.2f}" if unit in ("k/s", "MiB") else f"{x:.3f}"


def lab_results(run, name, family):
    """One run's results as run_record keeps them: its main metric, with htab-mem's memory and map
    growth, then one result a metric of each role line; each value as bench printed it (mean_text,
    stddev_text: 3 decimals, fmt) and as that number."""
    def result(result_name, mean, stddev, unit):
        mean_text, stddev_text = fmt(mean, unit), fmt(stddev, unit)
        return {"name": result_name, "family": family, "mean": float(mean_text), "mean_text": mean_text,
                "stddev": None if stddev_text == "-" else float(stddev_text), "stddev_text": stddev_text,
                "unit": unit or "-", "memory": None, "map_growth": None}

    m = main_metric(run)
    first = result(name, m["mean"], m["stddev"], m["unit"])
    for key, mem in (("memory", memory(run)), ("map_growth", map_growth(run))):
        if mem:
            text = [fmt(mem["mean"], "MiB"), fmt(mem["stddev"], "MiB"), fmt(mem["peak"], "MiB")]
            first[key] = {"mean": float(text[0]), "stddev": float(text[1]), "peak": float(text[2]), "text": text}
    out = [first]
    for r in run["roles"]:
        for metric, key, unit in (("inserts", "inserts", "M/s"), ("e2big", "e2big", "M/s"),
                                  ("failed-insert", "failed_ns", "ns")):
            if r[key] is not None:
                out.append(result(f"{name}.{r['role']}.{metric}", r[key], r[key + "_sd"], unit))
    return out


def lab_lines(run, name, family):
    """lab_results as the lab-result (lab-memory, lab-map-growth) lines the guest printed before."""
    lines = []
    for r in lab_results(run, name, family):
        lines.append(f"lab-result: {r['name']} {family} {r['mean_text']} {r['stddev_text']} {r['unit']}")
        for kind, key in (("memory", "memory"), ("map-growth", "map_growth")):
            if r[key]:
                lines.append(f"lab-{kind}: {r['name']} {family} {' '.join(r[key]['text'])} MiB")
    return lines


def pieces(text):
    """TEXT in order: ("line", LINE) for a line outside the raw runs, ("raw", KIND, WORDS, OUTPUT,
    RC) for a raw run with its end marker."""
    out, raw = [], None
    for line in text.splitlines():
        line = line.rstrip("\r")
        start = RAW_START.match(line)
        if start:
            raw = (start.group(1), start.group(2).split(), [])   # one before without its end: lost
            continue
        if raw is None:
            out.append(("line", line))
            continue
        end = RAW_END.search(line)
        if end:
            if end.start():
                raw[2].append(line[:end.start()])
            out.append(("raw", raw[0], raw[1], "".join(x + "\n" for x in raw[2]), int(end.group(1))))
            raw = None
        else:
            raw[2].append(line)
    return out


def raw_results(words, output, rc):
    """The results of a raw run of a benchmark of the registry (words: NAME FAMILY): lab_results, or
    one {name, family, missing: WHY} (FAILED: bench's exit status; no summary line)."""
    if len(words) != 2:
        raise BenchOutputError(f"malformed lab-raw: bench line: '{' '.join(words)[:80]}'")
    name, family = words
    if rc != 0:
        return [{"name": name, "family": family, "missing": "FAILED"}]
    try:
        return lab_results(one_run(output), name, family)
    except BenchOutputError:
        return [{"name": name, "family": family, "missing": "no summary line"}]


def parse_lab(text, missing=False):
    """The lab-result lines of TEXT, with the lab-memory and lab-map-growth lines of the same
    benchmark, in order; with MISSING, the lab-missing lines too ({name, family, missing: WHY})."""
    results = []
    for piece in pieces(text):
        if piece[0] == "raw":
            if piece[1] == "bench":
                results += [r for r in raw_results(*piece[2:]) if missing or "missing" not in r]
            continue
        line = piece[1]
        m = LAB_RESULT.match(line)
        if m:
            results.append({"name": m.group(1), "family": m.group(2), "mean": float(m.group(3)),
                            "mean_text": m.group(3),
                            "stddev": None if m.group(4) == "-" else float(m.group(4)),
                            "stddev_text": m.group(4),
                            "unit": m.group(5).strip(), "memory": None, "map_growth": None})
            continue
        m = LAB_MEMORY.match(line)
        if m:
            if not results or results[-1]["name"] != m.group(2) or "missing" in results[-1]:
                raise BenchOutputError(f"lab-{m.group(1)} line without its lab-result line: '{line}'")
            results[-1]["memory" if m.group(1) == "memory" else "map_growth"] = {
                "mean": float(m.group(4)), "stddev": float(m.group(5)), "peak": float(m.group(6)),
                "text": [m.group(4), m.group(5), m.group(6)]}
            continue
        m = LAB_MISSING.match(line)
        if m:
            if missing:
                results.append({"name": m.group(1), "family": m.group(2), "missing": m.group(3).strip()})
        elif line.startswith(("lab-result:", "lab-memory:", "lab-map-growth:", "lab-missing:")):
            raise BenchOutputError(f"malformed lab line: '{line[:80]}'")
    return results


def parse_scaling(text):
    """The "scaling: ..." lines of TEXT (scripts/guest/scaling-rounds.sh), in order: {name, bench (A or
    B), producers, mean, stddev} or, for a failed run, {name, bench, producers, fail: WHY}."""
    out = []
    for piece in pieces(text):
        if piece[0] == "raw":
            if piece[1] == "scaling":
                out.append(raw_scaling(*piece[2:]))
            continue
        line = piece[1]
        if not line.startswith("scaling: "):
            continue
        m = SCALING.match(line)
        if not m:
            raise BenchOutputError(f"malformed scaling line: '{line[:80]}'")
        r = {"name": m.group(1), "bench": m.group(2), "producers": int(m.group(3))}
        if m.group(4) is None:
            r["fail"] = m.group(6)
        else:
            r.update(mean=float(m.group(4)), stddev=None if m.group(5) == "-" else float(m.group(5)))
        out.append(r)
    return out


def raw_scaling(words, output, _rc):
    """A raw run of make scaling (words: BENCH A|B pN) as parse_scaling gives it: its Summary's hits
    rate in M/s, or fail WHY (the first line of bench's output that says why, else what is wrong
    with its Summary)."""
    m = re.fullmatch(r"(\S+) ([AB]) p(\d+)", " ".join(words))
    if not m:
        raise BenchOutputError(f"malformed lab-raw: scaling line: '{' '.join(words)[:80]}'")
    r = {"name": m.group(1), "bench": m.group(2), "producers": int(m.group(3))}
    try:
        rate = main_metric(one_run(output), "hits")
        why = None if rate["unit"] == "M/s" else " ".join(
            [fmt(rate["mean"], rate["unit"]), fmt(rate["stddev"], rate["unit"]), rate["unit"] or "-"])
    except BenchOutputError as e:
        rate, why = None, f"benchout: {e}"
    if why is None:
        mean, stddev = fmt(rate["mean"], rate["unit"]), fmt(rate["stddev"], rate["unit"])
        r.update(mean=float(mean), stddev=None if stddev == "-" else float(stddev))
    else:
        said = [line for line in output.splitlines() if SCALING_WHY.search(line)]
        r["fail"] = said[0] if said else why
    return r


def htab_mem_line(impl, use_case, flavour, text):
    """The "htab-mem: ..." line of one run's bench output TEXT (scripts/readout.py htab-mem-table)."""
    head = f"htab-mem: {use_case} {flavour} {impl}"
    try:
        run = one_run(text)
        op = main_metric(run, "per-prod-op")
    except BenchOutputError as e:
        return f"{head} fail {e}"
    if run["warnings"]:
        return f"{head} fail {run['warnings'][0]}"
    usage = memory(run)
    growth = map_growth(run)
    return " ".join([head, fmt(op["mean"], "k/s")] +
                    [fmt(x, "MiB") for x in (usage and usage["mean"], usage and usage["peak"],
                                             growth and growth["mean"])])


def run_record(text, fields):
    """One run of scripts/measure.sh as a dict: FIELDS ("KEY=VALUE" strings; "label.KEY=VALUE" go
    to its labels; a value of digits is a number) and the results of the runner's output TEXT."""
    run = {"labels": {}}
    for f in fields:
        key, sep, value = f.partition("=")
        if not sep or not key:
            raise BenchOutputError(f"run: expected KEY=VALUE, got '{f}'")
        value = int(value) if re.fullmatch(r"-?(?:0|[1-9]\d*)", value) else value
        if key.startswith("label."):
            run["labels"][key[len("label."):]] = value
        else:
            run[key] = value
    run["results"] = parse_lab(text, missing=True)
    if run.get("status") == 0 and any(r.get("missing") == "no summary line" for r in run["results"]):
        run["status"] = 1   # the guest, which no longer reads its runs, ran them all: one gave no result
    run["scaling"] = parse_scaling(text)
    run["htab_mem"] = []
    for piece in pieces(text):
        if piece[0] == "line" and piece[1].startswith("htab-mem: "):
            run["htab_mem"].append(piece[1])
        elif piece[0] == "raw" and piece[1] == "htab-mem":
            if len(piece[2]) != 3:
                raise BenchOutputError(f"malformed lab-raw: htab-mem line: '{' '.join(piece[2])[:80]}'")
            run["htab_mem"].append(htab_mem_line(*piece[2], piece[3]))
    return run


def read_runs(text):
    """The runs of a runs file (one JSON object a line), in order."""
    runs = []
    for i, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            run = json.loads(line)
        except ValueError as e:
            raise BenchOutputError(f"line {i}: not JSON ({e.msg})")
        if not isinstance(run, dict) or not isinstance(run.get("results"), list):
            raise BenchOutputError(f"line {i}: not a run of scripts/measure.sh (no results)")
        runs.append(run)
    return runs


def summary_lines(runs):
    """make bench's summary of each suite run: a blank line, "Summary (WHERE, bench -wW -dD):" and
    one row a benchmark, in the order it ran, as scripts/guest/suite.sh printed it before."""
    out = []
    for run in runs:
        if run.get("runner") != "suite":
            continue
        labels = run["labels"]
        out += ["", f"Summary ({run.get('where', '?')}, bench -w{labels.get('warmup', '?')} "
                    f"-d{labels.get('duration', '?')}):"]
        for r in run["results"]:
            if "missing" in r:
                out.append(f"  {r['name']:<28} {r['missing']}")
                continue
            line = f"  {r['name']:<28} {r['mean_text']:>10} ± {r['stddev_text']:<8} {r['unit']:<5}"
            if r.get("memory"):
                mean, stddev, peak = r["memory"]["text"]
                line += f"   memory {mean:>8} ± {stddev:<6} MiB, peak {peak} MiB"
            if r.get("map_growth"):
                mean, stddev, peak = r["map_growth"]["text"]
                line += f"; map growth {mean} ± {stddev} MiB, peak {peak} MiB"
            out.append(line)
    return out


TRIALS_HEADER = ["clock", "variant", "trial", "possible_cpus", "family", "benchmark", "value", "unit"]


def trials_rows(runs):
    """make compare's trials.csv rows (scripts/readout.py stats reads them): each result of each
    run, with the run's labels clock, variant, trial and possible."""
    rows = []
    for run in runs:
        labels = run["labels"]
        try:
            head = [str(labels[k]) for k in ("clock", "variant", "trial", "possible")]
        except KeyError as e:
            raise BenchOutputError(f"a run without the label {e.args[0]} (trials-csv)")
        rows += [head + [r["family"], r["name"], r["mean_text"], r["unit"]]
                 for r in run["results"] if "missing" not in r]
    return rows


def scaling_lines(runs):
    """make scaling's table: per benchmark and bench (A, B), the mean over the rounds of the -p1 and
    -p2 rates, p2/p1 of those means, and the lowest and highest per-round ratio; "fails" for a
    benchmark with a failed run."""
    keys, fails, rates = [], {}, {}
    for run in runs:
        for r in run.get("scaling", []):
            key = (r["name"], r["bench"])
            if key not in fails:
                keys.append(key)
                fails[key] = 0
            if "fail" in r:
                fails[key] += 1
            else:
                rates.setdefault((key, r["producers"]), []).append(r["mean"])
    out = [f"{'benchmark':<18} {'':<3} {'p1':>10} {'p2':>10} {'p2/p1':>7} {'per round':>15}"]
    for key in keys:
        p1, p2 = rates.get((key, 1), []), rates.get((key, 2), [])
        if fails[key] or not p1 or not p2 or sum(p1) <= 0:
            out.append(f"{key[0]:<18} {key[1]:<3} {'fails':>10} ({fails[key]} of "
                       f"{fails[key] + len(p1) + len(p2)} runs)")
            continue
        m1, m2 = sum(p1) / len(p1), sum(p2) / len(p2)
        ratios = [b / a if a > 0 else 0 for a, b in zip(p1, p2)]
        lo, hi = min(ratios + [1e9]), max(ratios + [0])
        out.append(f"{key[0]:<18} {key[1]:<3} {m1:>10.3f} {m2:>10.3f} {m2 / m1:>7.2f} "
                   f"{lo:>7.2f}..{hi:<6.2f}")
    return out


def clocks(runs):
    """The clocks of RUNS, in order, each once, comma-separated."""
    return ",".join(dict.fromkeys(str(r.get("clock", "?")) for r in runs))


def last_field(runs, key):
    """The field KEY of the last of RUNS."""
    if not runs or key not in runs[-1]:
        raise BenchOutputError(f"no field '{key}' in the last run" if runs else "no runs")
    return runs[-1][key]


def append_run(path, run):
    """RUNS (the runs file PATH) with RUN as its last line."""
    with open(path, "a") as f:
        f.write(json.dumps(run, ensure_ascii=False) + "\n")


def write_table(path, lines):
    with open(path, "w") as f:
        f.writelines(line + "\n" for line in lines)


def read_input(path):
    if path in (None, "-"):
        return sys.stdin.read()
    with open(path, errors="replace") as f:
        return f.read()


def main(argv, prog="readout.py benchout"):
    out, args = sys.stdout, list(argv)
    if not args:
        return usage("expected a command: rate, lab, json, run, summary, report, trials-csv, scaling, clock or field (--help)")
    cmd, args = args[0], args[1:]
    if cmd == "rate":
        name = None
        if args[:1] == ["-m"] and len(args) >= 2:
            name, args = args[1], args[2:]
        if len(args) > 1:
            return usage(f"rate takes at most one FILE, got {len(args)}")
        m = main_metric(one_run(read_input(args[0] if args else None)), name)
        print(f"{fmt(m['mean'], m['unit'])} {fmt(m['stddev'], m['unit'])} {m['unit'] or '-'}", file=out)
    elif cmd == "lab":
        if len(args) not in (2, 3):
            return usage("lab takes NAME FAMILY [FILE]")
        run = one_run(read_input(args[2] if len(args) == 3 else None))
        for line in lab_lines(run, args[0], args[1]):
            print(line, file=out)
    elif cmd == "json":
        if len(args) > 1:
            return usage(f"json takes at most one FILE, got {len(args)}")
        for run in parse(read_input(args[0] if args else None)):
            print(json.dumps(run, ensure_ascii=False), file=out)
    elif cmd == "run":
        append = None
        if args[:1] == ["-a"] and len(args) >= 2:
            append, args = args[1], args[2:]
        if not args:
            return usage("run takes [-a RUNS] LOG [KEY=VALUE...]")
        run = run_record(read_input(args[0]), args[1:])
        if append is None:
            print(json.dumps(run, ensure_ascii=False), file=out)
        else:
            append_run(append, run)
            print(last_field([run], "status"), file=out)
    elif cmd == "field":
        if len(args) not in (1, 2):
            return usage("field takes KEY [RUNS]")
        print(last_field(read_runs(read_input(args[1] if len(args) == 2 else None)), args[0]), file=out)
    elif cmd == "report":
        if len(args) != 2:
            return usage("report takes RUNS TABLE")
        runs = read_runs(read_input(args[0]))
        write_table(args[1], summary_lines(runs))
        # the commit of VARIANT=COMMIT, as the shell's ${bench#*=}
        print(str(last_field(runs, "bench")).split("=", 1)[-1], file=out)
        print(clocks(runs), file=out)
    elif cmd in ("summary", "trials-csv", "scaling", "clock"):
        if len(args) > 1:
            return usage(f"{cmd} takes at most one RUNS file, got {len(args)}")
        runs = read_runs(read_input(args[0] if args else None))
        if cmd == "summary":
            lines = summary_lines(runs)
        elif cmd == "scaling":
            lines = scaling_lines(runs)
        elif cmd == "clock":
            lines = [clocks(runs)]
        else:
            w = csv.writer(out, lineterminator="\n")
            w.writerow(TRIALS_HEADER)
            w.writerows(trials_rows(runs))
            lines = []
        for line in lines:
            print(line, file=out)
    else:
        return usage(f"unknown command '{cmd}' (rate, lab, json, run, summary, report, trials-csv, scaling, clock, field; --help)")
    return 0


def usage(msg):
    return cli.usage_error("readout.py benchout", msg)
