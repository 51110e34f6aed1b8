#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Run bpf_lru_mt for one or more versions of bpf_lru_list.c and tabulate.

usage: mt_run.py time  [--reps N] [--ms MS] [--cases CASES] [--json F] NAME=BINARY...
       mt_run.py count [--cases CASES] [--json F] NAME=BINARY...
       mt_run.py capacity [--possible 'P ...'] [--json F] NAME=BINARY...
       mt_run.py ktable [--json F] RESULTS.jsonl
       mt_run.py tests [--json F] NAME=GTEST_JSON...
       mt_run.py scan [--reps N] [--ms MS] [--cases CASES] [--ops N] [--icount-ops N]
                      [--jobs N] [--seeds N] [--json F] [--rule-md F] [--seeds-md F]
                      --tally NAME=BINARY... NAME=BINARY...

A case is SCENARIO/POSSIBLE[/ENTRIES[/ONLINE]] (bpf_lru_mt's scenarios).
time: every repetition runs every case once per version, the versions in an
order that rotates from one repetition to the next, so drift on a busy
machine hits every version alike; prints per case, role and version the
median ns per pop, its spread (min-max over the repetitions), the ratio of
medians to the first version, and the medians of the per-pop counts.
count: each case once per version with --sim (one thread plays the online
CPUs; deterministic): how often a pop runs the steal walk, and its locks.
capacity: keys CPU 0 leaves in a BPF_F_NO_COMMON_LRU map, and a common one.
scan: the refill's scan (issue 59), hotcold cases (hotcold/POSSIBLE/ENTRIES/ONLINE):
per case and version, the tally build's --sim run (counts, hit rate, live share),
callgrind's instructions per op of the plain build (the difference of two --sim
run lengths, --icount-ops and twice that, counting only hotcold_sim_ops), and,
for 2 online CPUs, the plain build's threads timed (--reps, interleaved); then
the issue's rule (choose()). With --seeds N > 1 the tally build also runs every case
under seeds 2..N (bpf_lru_mt --seed; seed 1 is the table's run), and a second rule,
within the base's own spread over those seeds, is applied as well (choose_spread());
--rule-md: both rules' verdicts, a table per version; --seeds-md: the per-seed spread.
tests: per version, the GoogleTest tests of bpf_lru_test (its --gtest_output=json:FILE)
that passed and failed, the failed ones with their parameters (LruMapSanity3's: possible CPUs).
ktable: the table of kbench.sh's runs of lru_kbench in the kernel, one JSON
line each (--json: the same as one JSON list).
"""
import argparse
import json
import re
import statistics
import subprocess
import sys

TIME_CASES = ("own/2 own/64 own/255 "
              "steal-remote/2 steal-remote/64 steal-remote/255 steal-remote/1024 steal-remote/4096 "
              "churn-insert:10000/2 churn-insert:10000/64 churn-insert:10000/255 "
              "churn-insert:1000/2 churn-insert:1000/64 churn-insert:1000/255 "
              "full/2 full/64 full/255 mix/2/1024 mix/64/1024 mix/256/1024")
# map sizes x (online, possible): 2 online at 2, 8 (4x), 64 and 256 possible;
# 8 online of 32 and 64 of 256 (4x); then maps smaller than the CPUs' local lists
COUNT_CASES = " ".join(
    [f"mix/{p}/{e}/2" for e in (1024, 65536, 1048576) for p in (2, 8, 64, 256)] +
    [f"mix/{p}/{e}/{o}" for e in (1024, 65536, 1048576) for o, p in ((8, 32), (64, 256))] +
    [f"mix/{p}/{e}/{o}" for e in (16, 64, 256) for o, p in ((2, 8), (8, 32), (64, 256))])
# hotcold: map sizes x (online, possible); 64 online only where 64 are possible
SCAN_CASES = " ".join(f"hotcold/{p}/{e}/{o}" for e in (1024, 4096, 16384, 65536)
                      for o, p in ((2, 2), (2, 8), (2, 64), (2, 128), (2, 256),
                                   (64, 64), (64, 128), (64, 256)))
COUNTS = ("locks", "remote_locks", "walks", "stolen", "evictions", "walk_locks")


def parse_case(text):
    """'churn-insert:1000/64/1024' -> (scenario, possible, entries or None, online or None)"""
    parts = text.split("/")
    if not 2 <= len(parts) <= 4 or not parts[0] or not all(p.isdigit() for p in parts[1:]):
        raise ValueError(f"bad case '{text}' (SCENARIO/POSSIBLE[/ENTRIES[/ONLINE]])")
    nums = [int(p) for p in parts[1:]] + [None] * (4 - len(parts))
    return (parts[0], nums[0], nums[1], nums[2])


def case_args(case, ms=None, sim=False):
    scenario, possible, entries, online = case
    args = []
    if ms:
        args += ["--ms", str(ms)]
    if entries:
        args += ["--entries", str(entries)]
    if online:
        args += ["--online", str(online)]
    if sim:
        args.append("--sim")
    return args + [scenario, str(possible)]


def rotate(names, rep):
    k = rep % len(names)
    return names[k:] + names[:k]


def run(binary, args):
    out = subprocess.run([binary] + args, capture_output=True, text=True, timeout=600)
    if out.returncode:
        raise RuntimeError(f"{binary} {' '.join(args)}: exit {out.returncode}: {out.stderr.strip()}")
    return json.loads(out.stdout)


def roles(result):
    return [k for k, v in result.items() if isinstance(v, dict)]


def summarize(values):
    """median, min, max"""
    return statistics.median(values), min(values), max(values)


def time_table(results, names):
    """results[case][name] = list of outputs; rows of the table"""
    lines = ["| case | role | version | ns/pop median | spread | x | locks/pop | remote/pop "
             "| walks/pop | stolen/pop | evictions/pop | late |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for case, per in results.items():
        for role in roles(per[names[0]][0]):
            ref = statistics.median(r[role]["ns_pop"] for r in per[names[0]])
            for name in names:
                runs = per[name]
                med, lo, hi = summarize([r[role]["ns_pop"] for r in runs])
                c = {k: statistics.median(r[role][k] for r in runs) for k in COUNTS}
                late = ""
                if "late" in runs[0] and role == "inserter":
                    late = "%.1f%%" % (100 * statistics.median(r["late"] for r in runs))
                lines.append("| %s | %s | %s | %.1f | %.1f-%.1f | %.2f | %.2f | %.2f | %.4f | %.4f | %.3f | %s |" % (
                    case, role, name, med, lo, hi, med / ref if ref else 0, c["locks"],
                    c["remote_locks"], c["walks"], c["stolen"], c["evictions"], late))
    return lines


def count_table(results, names):
    lines = ["| entries | online | possible | version | pops | walks | walks per 1M pops "
             "| locks per walk | stolen/pop | fails |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for per in results.values():
        for name in names:
            r = per[name][0]
            a = r["all"] if "all" in r else r[roles(r)[0]]
            lines.append("| %d | %d | %d | %s | %d | %d | %.1f | %.1f | %.6f | %d |" % (
                r["entries"], r["online"], r["possible"], name, a["pops"],
                round(a["walks"] * a["pops"]), 1e6 * a["walks"], a["walk_locks"],
                a["stolen"], a["fails"]))
    return lines


def capacity_table(results, names):
    lines = ["| possible | version | max_entries (asked 65536) | keys left, NO_COMMON_LRU | keys left, common LRU |",
             "|---|---|---|---|---|"]
    for per in results.values():
        for name in names:
            r = per[name][0]
            lines.append("| %d | %s | %d | %d | %d |" % (
                r["possible"], name, r["no_common_lru"]["max_entries"],
                r["no_common_lru"]["left"], r["common_lru"]["left"]))
    return lines


def kernel_table(runs):
    """kbench.sh's lines (lru_kbench's counter deltas, one VM run each)"""
    lines = ["| clock | online | possible | scenario | entries | pops | walks | walks per 1M pops "
             "| lists per walk | stolen | failed updates | ns/op cpu0 | ns/op cpu1 |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in runs:
        cpus = [r.get("cpu%d" % i) for i in range(2)]
        lines.append("| %s | %d | %d | %s | %d | %d | %d | %.1f | %.1f | %d | %d | %s | %s |" % (
            r["clock"], r["online"], r["possible"], r["scenario"], r["entries"], r["pops"],
            r["walks"], 1e6 * r["walks"] / r["pops"] if r["pops"] else 0,
            r["visited"] / r["walks"] if r["walks"] else 0, r["stolen"],
            sum(c["fails"] for c in cpus if c),
            *["%s %.0f" % (c["role"], c["ns_op"]) if c else "" for c in cpus]))
    return lines


def gtest_summary(report):
    """A version's GoogleTest report (--gtest_output=json) without times or paths:
    {"tests": N, "passed": N, "failed": [{"test": SUITE.NAME, "param": P or None}, ...]}"""
    failed, n = [], 0
    for suite in report["testsuites"]:
        for t in suite["testsuite"]:
            n += 1
            if t.get("failures"):
                failed.append({"test": "%s.%s" % (suite["name"].split("/")[-1], t["name"].split("/")[0]),
                               "param": t.get("value_param")})
    return {"tests": n, "passed": n - len(failed), "failed": failed}


def tests_table(summaries):
    """summaries: [(version, gtest_summary())]; one row per version, a failed parameterized test
    once with the parameters it failed at"""
    lines = ["| version | tests | passed | failed | failed tests (parameters) |", "|---|---|---|---|---|"]
    for name, s in summaries:
        tests = {}
        for f in s["failed"]:
            tests.setdefault(f["test"], []).append(f["param"])
        failed = "; ".join(t + (" (%s)" % ", ".join(p for p in ps if p is not None) if any(ps) else "")
                           for t, ps in tests.items())
        lines.append("| %s | %d | %d | %d | %s |" % (name, s["tests"], s["passed"], len(s["failed"]), failed))
    return lines


def callgrind_ir(stderr):
    """The instructions callgrind collected (its 'Collected : N' line)."""
    m = re.search(r"^==\d+== Collected : (\d+)$", stderr, re.M)
    if not m:
        raise RuntimeError("no 'Collected :' line in callgrind's output")
    return int(m.group(1))


def icount_per_op(binary, args, ops, run_cmd=subprocess.run):
    """Instructions per op: callgrind of --ops OPS and of 2 x OPS, the same ops first (--sim is
    deterministic), counting only hotcold_sim_ops; (long - short) / OPS is the OPS more ops alone."""
    irs = []
    for n in (ops, 2 * ops):
        cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
               "--toggle-collect=*hotcold_sim_ops*", binary, "--ops", str(n)] + args
        out = run_cmd(cmd, capture_output=True, text=True, timeout=1800)
        if out.returncode:
            raise RuntimeError(f"{' '.join(cmd)}: exit {out.returncode}: {out.stderr.strip()[-300:]}")
        irs.append(callgrind_ir(out.stderr))
    return {"ops": ops, "short": irs[0], "long": irs[1], "per_op": (irs[1] - irs[0]) / ops}


def scan_row(c):
    """The derived columns of one --sim hotcold run (the tally build's)."""
    a = c["all"]
    pops, refills = a["pops"], c["global"]
    per_refill = (lambda x: x / refills) if refills else (lambda x: 0.0)
    return {"nr_scans": c["nr_scans"], "target_free": c["target_free"],
            "global_per_pop": refills / pops if pops else 0.0,
            "rotated_per_refill": per_refill(c["rotate_active"] + c["rotate_inactive"]),
            "shrink_scan_per_refill": per_refill(c["shrink_scan"] + c["force_scan"]),
            "shrunk_per_refill": per_refill(c["shrunk"]),
            "forced_per_refill": per_refill(c["force"]),
            "hit_rate": c["hits"] / c["lookups"] if c["lookups"] else 0.0,
            "ref_evictions_per_pop": c["ref_evicted"] / pops if pops else 0.0,
            "live": c["live"], "walks_per_pop": a["walks"]}


def scan_table(results, names):
    lines = ["| entries | online | possible | version | nr_scans | Ir/op | ns/pop median | spread "
             "| x | global locks/pop | rotated/refill | shrink scanned/refill | shrunk/refill "
             "| forced/refill | hit rate | ref evictions/pop | live share | walks/pop |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for key, per in results.items():
        _, possible, entries, online = parse_case(key)
        ref = None
        if per[names[0]].get("time"):
            ref = statistics.median(t["all"]["ns_pop"] for t in per[names[0]]["time"])
        for name in names:
            r = per[name]
            d = scan_row(r["count"])
            ns = spread = x = ""
            if r.get("time"):
                med, lo, hi = summarize([t["all"]["ns_pop"] for t in r["time"]])
                ns, spread = "%.1f" % med, "%.1f-%.1f" % (lo, hi)
                x = "%.2f" % (med / ref) if ref else ""
            ir = "%.1f" % r["icount"]["per_op"] if r.get("icount") else ""
            lines.append("| %d | %d | %d | %s | %d | %s | %s | %s | %s | %.3f | %.1f | %.1f | %.2f "
                         "| %.3f | %.4f | %.5f | %.4f | %.6f |" % (
                             entries, online, possible, name, d["nr_scans"], ir, ns, spread, x,
                             d["global_per_pop"], d["rotated_per_refill"],
                             d["shrink_scan_per_refill"], d["shrunk_per_refill"],
                             d["forced_per_refill"], d["hit_rate"], d["ref_evictions_per_pop"],
                             d["live"], d["walks_per_pop"]))
    return lines


def losses(results, names):
    """Issue 59's rule, case by case: {version: ["CASE: what it loses", ...]} for every version
    after the reference (names[0]): a hit rate or live share lower than the reference's, or more
    referenced evictions per pop (the --sim run of seed 1, the table's)."""
    bad = {}
    for name in names[1:]:
        bad[name] = []
        for key, per in results.items():
            b, v = scan_row(per[names[0]]["count"]), scan_row(per[name]["count"])
            why = [w for w, lost in (
                ("hit rate %.5f < %.5f" % (v["hit_rate"], b["hit_rate"]), v["hit_rate"] < b["hit_rate"]),
                ("live share %.6f < %.6f" % (v["live"], b["live"]), v["live"] < b["live"]),
                ("ref evictions/pop %.7f > %.7f" % (v["ref_evictions_per_pop"], b["ref_evictions_per_pop"]),
                 v["ref_evictions_per_pop"] > b["ref_evictions_per_pop"])) if lost]
            if why:
                bad[name].append("%s: %s" % (key, ", ".join(why)))
    return bad


def verdicts(bad, ncases, fails, passes):
    """The first version without a loss (the versions in order, smallest change first), and one
    line per version, then the choice. (choice or None, lines)"""
    lines, choice = [], None
    for name, lost in bad.items():
        if lost:
            lines.append("- %s: %s in %d of %d cases: %s" % (name, fails, len(lost), ncases, "; ".join(lost)))
        else:
            lines.append("- %s: %s in all %d cases" % (name, passes, ncases))
            choice = choice or name
    lines.append("- choice: %s" % (choice or "none of the versions"))
    return choice, lines


def choose(results, names):
    """Issue 59's rule: the first version after the reference (names[0]; the others smallest
    change first) whose hit rate and live share are never lower than the reference's and whose
    referenced evictions per pop are never higher, in any case. (choice or None, lines)"""
    return verdicts(losses(results, names), len(results), "fails the rule", "passes the rule")


def seed_row(c, seed=1):
    """What the spread over seeds needs of one tally --sim run, kept for each seed."""
    return {"seed": c.get("seed", seed), "pops": c["all"]["pops"], "lookups": c["lookups"],
            "hits": c["hits"], "live": c["live"], "ref_evicted": c["ref_evicted"],
            "force": c["force"], "global": c["global"]}


def seed_values(rows):
    """hit rates, live shares and referenced evictions per pop of a version's seed rows"""
    return ([r["hits"] / r["lookups"] if r["lookups"] else 0.0 for r in rows],
            [r["live"] for r in rows],
            [r["ref_evicted"] / r["pops"] if r["pops"] else 0.0 for r in rows])


def spread_losses(results, names):
    """The rule within the reference's own spread, case by case, over the same seeds (each case's
    "seeds"): a version loses where its median hit rate or median live share is below the lowest the
    reference (names[0]) gave under any seed, or its highest referenced evictions per pop is above
    the reference's highest. ({version: ["CASE: what it loses", ...]}, rows of the spread table)"""
    bad = {n: [] for n in names[1:]}
    rows = ["| case | version | seeds | hit rate median | hit rate min-max | live share median "
            "| live share min-max | ref evictions/pop max | ref evictions, all seeds | within the base's spread |",
            "|---|---|---|---|---|---|---|---|---|---|"]
    for key, per in results.items():
        bh, bl, br = seed_values(per[names[0]]["seeds"])
        for name in names:
            seeds = per[name]["seeds"]
            h, live, ref = seed_values(seeds)
            why = []
            if name != names[0]:
                why = [(w, short) for w, short, lost in (
                    ("hit rate %.5f < %.5f" % (statistics.median(h), min(bh)), "hit rate",
                     statistics.median(h) < min(bh)),
                    ("live share %.6f < %.6f" % (statistics.median(live), min(bl)), "live share",
                     statistics.median(live) < min(bl)),
                    ("ref evictions/pop %.7f > %.7f" % (max(ref), max(br)), "ref evictions",
                     max(ref) > max(br))) if lost]
                if why:
                    bad[name].append("%s: %s" % (key, ", ".join(w for w, _ in why)))
            within = "(the base)" if name == names[0] else (
                "no: " + ", ".join(short for _, short in why) if why else "yes")
            rows.append("| %s | %s | %d | %.4f | %.4f-%.4f | %.6f | %.6f-%.6f | %.7f | %d | %s |" % (
                key, name, len(seeds), statistics.median(h), min(h), max(h), statistics.median(live),
                min(live), max(live), max(ref), sum(r["ref_evicted"] for r in seeds), within))
    return bad, rows


def choose_spread(results, names):
    """The rule within the base's own spread (names[0], the reference), over the same seeds: the
    first version (smallest change first) whose median hit rate and median live share are, in every
    case, at or above the lowest the reference gave under any seed, and whose highest referenced
    evictions per pop are at or below the reference's highest. (choice or None, lines, rows of the
    spread table)"""
    bad, rows = spread_losses(results, names)
    n = len(next(iter(results.values()))[names[0]]["seeds"]) if results else 0
    choice, lines = verdicts(bad, len(results), "outside the base's spread (%d seeds)" % n,
                             "within the base's spread (%d seeds)" % n)
    return choice, lines, rows


def rule_table(results, names, spread=False):
    """One row per version: the cases it loses under the issue's rule (seed 1) and, with spread,
    under the rule within the base's spread over the seeds."""
    strict = losses(results, names)
    within = spread_losses(results, names)[0] if spread else {}
    head = "| version | the issue's rule: cases lost | where |"
    if spread:
        head += " within the base's spread: cases lost | where |"
    out = [head, "|" + "---|" * head.count(" |")]
    for name in names[1:]:
        row = "| %s | %d of %d | %s |" % (name, len(strict[name]), len(results), "; ".join(strict[name]))
        if spread:
            row += " %d of %d | %s |" % (len(within[name]), len(results), "; ".join(within[name]))
        out.append(row)
    return out


def scan(cases, vs, tally, reps, ms, ops, icount_ops, jobs, run_json=run, icount=icount_per_op, seeds=1):
    """results[case][name] = {"count": tally --sim run, "icount": {...}, "time": [runs]}, and with
    seeds > 1 "seeds": seed_row() of seeds 1 (the count) to SEEDS"""
    import concurrent.futures
    names = [n for n, _ in vs]
    keys = ["/".join(str(x) for x in c if x is not None) for c in cases]
    results = {k: {n: {} for n in names} for k in keys}
    sim = [(k, c, n) for k, c in zip(keys, cases) for n in names]
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
        counts = ex.map(lambda t: run_json(dict(tally)[t[2]], (["--ops", str(ops)] if ops else [])
                                           + case_args(t[1], sim=True)), sim)
        for (k, _, n), out in zip(sim, counts):
            results[k][n]["count"] = out
        print("# counts done", file=sys.stderr, flush=True)
        if seeds > 1:
            more = [(k, c, n, s) for s in range(2, seeds + 1) for k, c, n in sim]
            outs = ex.map(lambda t: run_json(dict(tally)[t[2]], (["--ops", str(ops)] if ops else [])
                                             + ["--seed", str(t[3])] + case_args(t[1], sim=True)), more)
            for k, _, n in sim:
                results[k][n]["seeds"] = [seed_row(results[k][n]["count"])]
            for (k, _, n, s), out in zip(more, outs):
                results[k][n]["seeds"].append(seed_row(out, s))
            print("# seeds 2-%d done" % seeds, file=sys.stderr, flush=True)
        if icount_ops:
            irs = ex.map(lambda t: icount(dict(vs)[t[2]], case_args(t[1], sim=True), icount_ops), sim)
            for (k, _, n), ir in zip(sim, irs):
                results[k][n]["icount"] = ir
            print("# instruction counts done", file=sys.stderr, flush=True)
    timed = [(k, c) for k, c in zip(keys, cases) if c[3] in (None, 2)]
    for rep in range(reps if timed else 0):
        for k, c in timed:
            for name in rotate(names, rep):
                out = run_json(dict(vs)[name], case_args(c, ms))
                results[k][name].setdefault("time", []).append(out)
        print(f"# repetition {rep + 1}/{reps} done", file=sys.stderr, flush=True)
    return results


def versions(specs):
    out = []
    for spec in specs:
        name, sep, binary = spec.partition("=")
        if not sep or not name or not binary:
            raise ValueError(f"bad version '{spec}' (NAME=BINARY)")
        out.append((name, binary))
    return out


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    if argv[:1] == ["ktable"]:
        kp = argparse.ArgumentParser(prog="mt_run.py ktable")
        kp.add_argument("--json")
        kp.add_argument("results")
        k = kp.parse_args(argv[1:])
        with open(k.results) as f:
            runs = [json.loads(line) for line in f if line.strip()]
        print("\n".join(kernel_table(runs)))
        if k.json:
            with open(k.json, "w") as f:
                json.dump(runs, f, indent=1)
        return 0
    if argv[:1] == ["tests"]:
        tp = argparse.ArgumentParser(prog="mt_run.py tests")
        tp.add_argument("--json")
        tp.add_argument("versions", nargs="+", metavar="NAME=GTEST_JSON")
        t = tp.parse_args(argv[1:])
        try:
            vs = versions(t.versions)
        except ValueError as e:
            sys.exit(f"mt_run.py: {e}")
        summaries = []
        for name, path in vs:
            with open(path) as f:
                summaries.append((name, gtest_summary(json.load(f))))
        print("\n".join(tests_table(summaries)))
        if t.json:
            with open(t.json, "w") as f:
                json.dump({"mode": "tests", "results": dict(summaries)}, f, indent=1)
        return 0
    if argv[:1] == ["scan"]:
        sp = argparse.ArgumentParser(prog="mt_run.py scan")
        sp.add_argument("--reps", type=int, default=5)
        sp.add_argument("--ms", type=int, default=200)
        sp.add_argument("--cases", default=SCAN_CASES)
        sp.add_argument("--ops", type=int, default=0)
        sp.add_argument("--icount-ops", type=int, default=40000)
        sp.add_argument("--jobs", type=int, default=2)
        sp.add_argument("--seeds", type=int, default=1)
        sp.add_argument("--json")
        sp.add_argument("--rule-md")
        sp.add_argument("--seeds-md")
        sp.add_argument("--tally", action="append", default=[], metavar="NAME=BINARY")
        sp.add_argument("versions", nargs="+", metavar="NAME=BINARY")
        s = sp.parse_args(argv[1:])
        try:
            vs, tally = versions(s.versions), versions(s.tally)
            cases = [parse_case(c) for c in s.cases.split()]
            if [n for n, _ in tally] != [n for n, _ in vs]:
                raise ValueError("--tally: one per version, in the same order")
            if any(c[0] != "hotcold" for c in cases):
                raise ValueError("scan: hotcold cases only")
            if s.seeds < 1:
                raise ValueError("--seeds: at least 1")
            if s.seeds_md and s.seeds < 2:
                raise ValueError("--seeds-md: needs --seeds 2 or more")
        except ValueError as e:
            sys.exit(f"mt_run.py: {e}")
        results = scan(cases, vs, tally, s.reps, s.ms, s.ops, s.icount_ops, s.jobs, seeds=s.seeds)
        names = [n for n, _ in vs]
        choice, rule = choose(results, names)
        print("\n".join(scan_table(results, names)))
        print("\nThe rule (issue 59), against %s:\n\n%s" % (names[0], "\n".join(rule)))
        spread_choice, spread, spread_rows = None, [], []
        if s.seeds > 1:
            spread_choice, spread, spread_rows = choose_spread(results, names)
            print("\nThe rule within the base's own spread (seeds 1-%d), against %s:\n\n%s" % (
                s.seeds, names[0], "\n".join(spread)))
        if s.rule_md:
            with open(s.rule_md, "w") as f:
                f.write("\n".join(rule_table(results, names, s.seeds > 1)) + "\n")
        if s.seeds_md:
            with open(s.seeds_md, "w") as f:
                f.write("\n".join(spread_rows) + "\n")
        if s.json:
            with open(s.json, "w") as f:
                json.dump({"mode": "scan", "versions": dict(vs), "tally": dict(tally), "reps": s.reps,
                           "ms": s.ms, "icount_ops": s.icount_ops, "seeds": s.seeds, "choice": choice,
                           "rule": rule, "spread_choice": spread_choice, "spread_rule": spread,
                           "results": results}, f, indent=1)
        return 0
    ap.add_argument("mode", choices=("time", "count", "capacity"))
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--ms", type=int, default=200)
    ap.add_argument("--cases")
    ap.add_argument("--possible", default="2 255")
    ap.add_argument("--json")
    ap.add_argument("versions", nargs="+", metavar="NAME=BINARY")
    a = ap.parse_args(argv)
    try:
        vs = versions(a.versions)
        if a.mode == "capacity":
            cases = [("capacity", int(p), None, None) for p in a.possible.split()]
        else:
            cases = [parse_case(c) for c in (a.cases or (TIME_CASES if a.mode == "time"
                                                          else COUNT_CASES)).split()]
    except ValueError as e:
        sys.exit(f"mt_run.py: {e}")
    names = [n for n, _ in vs]
    results = {}
    reps = a.reps if a.mode == "time" else 1
    for rep in range(reps):
        for case in cases:
            key = "/".join(str(x) for x in case if x is not None)
            for name in rotate(names, rep):
                binary = dict(vs)[name]
                out = run(binary, case_args(case, a.ms if a.mode == "time" else None,
                                            a.mode == "count"))
                results.setdefault(key, {}).setdefault(name, []).append(out)
        print(f"# repetition {rep + 1}/{reps} done", file=sys.stderr, flush=True)
    table = {"time": time_table, "count": count_table, "capacity": capacity_table}[a.mode]
    print("\n".join(table(results, names)))
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"mode": a.mode, "versions": dict(vs), "results": results}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
