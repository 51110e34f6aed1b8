#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Run bpf_lru_mt for one or more versions of bpf_lru_list.c and tabulate.

usage: mt_run.py time  [--reps N] [--ms MS] [--cases CASES] [--json F] NAME=BINARY...
       mt_run.py count [--cases CASES] [--json F] NAME=BINARY...
       mt_run.py capacity [--possible 'P ...'] [--json F] NAME=BINARY...
       mt_run.py ktable [--json F] RESULTS.jsonl

A case is SCENARIO/POSSIBLE[/ENTRIES[/ONLINE]] (bpf_lru_mt's scenarios).
time: every repetition runs every case once per version, the versions in an
order that rotates from one repetition to the next, so drift on a busy
machine hits every version alike; prints per case, role and version the
median ns per pop, its spread (min-max over the repetitions), the ratio of
medians to the first version, and the medians of the per-pop counts.
count: each case once per version with --sim (one thread plays the online
CPUs; deterministic): how often a pop runs the steal walk, and its locks.
capacity: keys CPU 0 leaves in a BPF_F_NO_COMMON_LRU map, and a common one.
ktable: the table of kbench.sh's runs of lru_kbench in the kernel, one JSON
line each (--json: the same as one JSON list).
"""
import argparse
import json
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
