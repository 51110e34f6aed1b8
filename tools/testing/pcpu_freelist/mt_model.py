#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""A cost model of percpu_freelist past the cores of this machine. A MODEL.

usage: mt_model.py simulate --costs FILE [--native MT_JSON] [--json OUT] [--robbable]
                            NAME=SIM_BINARY...

pcpu_freelist_sim (the kernel file under the counting shim) plays N CPUs in
one thread, in virtual time, and counts per operation of each role: lock
acquisitions, remote-head locks, clean reads, reads of lines another CPU
wrote last (misses), writes/RMWs of lines another CPU wrote or read since
(contended writes), and those on the hint's line. This script runs it for
every scenario at 2 (as the native runs: 64 possible CPUs), 16, 64 and 256
CPUs, and prices the counts with the per-event costs measured natively here
(`run.sh calibrate`):

    ns/op = fixed + lock*c_lock + remote_read*c_clean + miss_read*c_miss_read
            + miss_rmw*c_miss_rmw

(fixed: the pop+push pair's own work, c_pair less its two locks, and a
churner's hold, H*c_pause; remote_read: clean reads of other CPUs' heads,
priced as a read of a line of another page; other clean reads are free).
Without --robbable a churner frees and takes its node in one step and is
never robbed; with it (the storms only), its pop, its hold and its push are
steps of their own, so a stormer's pop can find the node and take it, as
natively: a pop that finds a node takes it. jiffy: 1 ms (HZ=1000); an exhausted freelist's heads
were idle for 4 jiffies first. At 2 CPUs it is compared with the native medians (--native,
mt_run.py's JSON): the error it states is the model's error here.
"""
import argparse
import json
import re
import statistics
import subprocess
import sys

COST_KEYS = ("c_lock", "c_pair", "c_clean", "c_pause", "c_miss_read", "c_miss_rmw")
EVENT_COST = {"lock": "c_lock", "remote_read": "c_clean",
              "miss_read": "c_miss_read", "miss_rmw": "c_miss_rmw"}
SCENARIOS = ("own", "ownflip", "exhausted", "handoff", "storm:0", "storm:20", "storm:100")
CPUS = (2, 16, 64, 256)
# the role whose ns/op a scenario reports (as mt_run.py's rows)
ROLES = {"own": ["cpu0"], "ownflip": ["cpu0"], "exhausted": ["cpu0"],
         "handoff": ["consumer"]}


def parse_costs(text):
    """'c_lock=5.1 c_pair=12 ...' (run.sh calibrate) -> dict of floats."""
    costs = {k: float(v) for k, v in re.findall(r"(c_\w+)=([-0-9.]+)", text)}
    missing = [k for k in COST_KEYS if k not in costs]
    if missing:
        raise ValueError(f"costs lack {' '.join(missing)}")
    return costs


def parse_sim(text):
    """pcpu_freelist_sim output -> {role: {field: float}}."""
    out = {}
    for line in text.splitlines():
        fields = dict(f.split("=", 1) for f in line.split())
        role = fields.pop("role")
        out[role] = {k: float(v) for k, v in fields.items()}
    return out


def predict(counts, costs):
    """ns per op of one role from its per-op counts: the model."""
    return counts["fixed"] + sum(counts[e] * costs[c] for e, c in EVENT_COST.items())


def is_storm(scenario):
    """storm:H and stormlast:H (the stormer on the last CPU): two roles."""
    return scenario.startswith(("storm:", "stormlast:"))


def roles(scenario):
    return ROLES.get(scenario, ["stormer", "churner"])


def row_name(scenario, possible, role):
    """The row of mt_run.py's table that a native run gives."""
    name = f"{scenario}:{possible}"
    return f"{name} {role}" if is_storm(scenario) else name


def rel_error(model, native):
    return (model - native) / native


def error_summary(pairs):
    """[(model, native)] -> (median |error|, max |error|), as fractions."""
    errs = [abs(rel_error(m, n)) for m, n in pairs]
    return statistics.median(errs), max(errs)


def sim_args(scenario, cpus, robbable=False):
    # 2 CPUs as the native runs (64 possible); past that, every CPU online
    possible = 64 if cpus == 2 else cpus
    threads = 2 if scenario == "handoff" else cpus
    # virtual ms measured after 0.08 ms of warm-up: fewer past 16 CPUs
    vms = {2: "0.4", 16: "0.2", 64: "0.1"}.get(cpus, "0.05")
    rob = ["--robbable"] if robbable and is_storm(scenario) else []
    return ["--vms", vms, *rob, "--threads", str(threads), scenario, str(possible)], possible


def simulate(binary, costs, scenario, cpus, robbable=False):
    args, possible = sim_args(scenario, cpus, robbable)
    cost_arg = ",".join(str(costs[k]) for k in COST_KEYS)
    p = subprocess.run([binary, "--costs", cost_arg, *args], capture_output=True,
                       text=True, timeout=600)
    if p.returncode:
        sys.exit(f"mt_model.py: {binary} {' '.join(args)}: {p.stderr.strip()}")
    return parse_sim(p.stdout), possible


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("command", choices=["simulate"])
    ap.add_argument("--costs", required=True, help="file with run.sh calibrate's line")
    ap.add_argument("--native", help="mt_run.py --json output of the native runs")
    ap.add_argument("--json", help="write every count and prediction here")
    ap.add_argument("--cpus", default=" ".join(map(str, CPUS)))
    ap.add_argument("--robbable", action="store_true",
                    help="storms: a churner's pop, hold and push are steps of their own")
    ap.add_argument("versions", nargs="+", metavar="NAME=SIM_BINARY")
    a = ap.parse_args()
    with open(a.costs) as f:
        costs = parse_costs(f.read())
    versions = [v.split("=", 1) for v in a.versions]
    cpus_list = [int(c) for c in a.cpus.split()]
    native = {}
    if a.native:
        with open(a.native) as f:
            native = json.load(f)["ns"]

    results = {}
    for scenario in SCENARIOS:
        for cpus in cpus_list:
            for name, binary in versions:
                print(f"simulating {name} {scenario} at {cpus} CPUs", file=sys.stderr, flush=True)
                sim, possible = simulate(binary, costs, scenario, cpus, a.robbable)
                for role in roles(scenario):
                    if role not in sim:
                        continue
                    results[(scenario, role, cpus, name)] = {
                        **sim[role], "model_ns": predict(sim[role], costs),
                        "possible": possible}

    names = [n for n, _ in versions]
    print("MODEL (not a measurement): ns per op predicted from simulated event counts "
          "and per-event costs measured on this machine")
    print("costs (ns): " + " ".join(f"{k}={costs[k]:.1f}" for k in COST_KEYS))
    head = f"{'scenario role':24}" + "".join(f"{f'{n}@{c}':>16}" for c in cpus_list if c != 2
                                               for n in names)
    print(head)
    for scenario in SCENARIOS:
        for role in roles(scenario):
            cells = []
            for c in cpus_list:
                if c == 2:
                    continue
                for n in names:
                    r = results.get((scenario, role, c, n))
                    cells.append(f"{r['model_ns']:.1f}" if r else "-")
            print(f"{scenario + ' ' + role:24}" + "".join(f"{x:>16}" for x in cells))

    if native and 2 in cpus_list:
        print("\nvalidation at 2 CPUs (64 possible): model vs native median, ns per op")
        pairs = []
        for scenario in SCENARIOS:
            for role in roles(scenario):
                for n in names:
                    r = results.get((scenario, role, 2, n))
                    key = f"{row_name(scenario, 64, role)}/{n}"
                    if not r or key not in native:
                        continue
                    nat = statistics.median(native[key])
                    pairs.append((r["model_ns"], nat))
                    print(f"  {row_name(scenario, 64, role):26} {n:14} model {r['model_ns']:9.1f}"
                          f"  native {nat:9.1f}  error {100 * rel_error(r['model_ns'], nat):+6.0f}%")
        if pairs:
            med, worst = error_summary(pairs)
            print(f"model error at 2 CPUs over {len(pairs)} rows: median |error| "
                  f"{100 * med:.0f}%, max {100 * worst:.0f}%")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"costs": costs,
                       "results": {"/".join(map(str, k)): v for k, v in results.items()}},
                      f, indent=1)


if __name__ == "__main__":
    main()
