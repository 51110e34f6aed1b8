#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Unit tests of mt_run.py: case parsing, arguments, rotation and the tables."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mt_run  # noqa: E402


def role(ns, walks=0.0, pops=100):
    return {"pops": pops, "fails": 0, "ns_pop": ns, "locks": 1.0, "remote_locks": 0.0,
            "walks": walks, "stolen": walks, "evictions": 0.0, "walk_locks": 255.0 if walks else 0.0}


class TestMtRun(unittest.TestCase):
    def test_parse_case(self):
        self.assertEqual(mt_run.parse_case("own/64"), ("own", 64, None, None))
        self.assertEqual(mt_run.parse_case("churn-insert:1000/255/1024"),
                         ("churn-insert:1000", 255, 1024, None))
        self.assertEqual(mt_run.parse_case("mix/256/1048576/64"), ("mix", 256, 1048576, 64))
        for bad in ("own", "own/x", "/64", "mix/1/2/3/4"):
            with self.assertRaises(ValueError):
                mt_run.parse_case(bad)

    def test_default_cases_parse(self):
        for c in (mt_run.TIME_CASES + " " + mt_run.COUNT_CASES).split():
            mt_run.parse_case(c)

    def test_case_args(self):
        self.assertEqual(mt_run.case_args(("mix", 256, 1024, 64), ms=None, sim=True),
                         ["--entries", "1024", "--online", "64", "--sim", "mix", "256"])
        self.assertEqual(mt_run.case_args(("own", 2, None, None), ms=200),
                         ["--ms", "200", "own", "2"])

    def test_rotate(self):
        self.assertEqual(mt_run.rotate(["a", "b", "c"], 0), ["a", "b", "c"])
        self.assertEqual(mt_run.rotate(["a", "b", "c"], 4), ["b", "c", "a"])

    def test_versions(self):
        self.assertEqual(mt_run.versions(["base=/x/b"]), [("base", "/x/b")])
        with self.assertRaises(ValueError):
            mt_run.versions(["base"])

    def test_time_table_median_spread_ratio(self):
        res = {"own/2": {"base": [{"cpu0": role(10.0)}, {"cpu0": role(30.0)}, {"cpu0": role(20.0)}],
                         "new": [{"cpu0": role(10.0)}, {"cpu0": role(10.0)}, {"cpu0": role(12.0)}]}}
        lines = mt_run.time_table(res, ["base", "new"])
        self.assertIn("| own/2 | cpu0 | base | 20.0 | 10.0-30.0 | 1.00 |", lines[2])
        self.assertIn("| own/2 | cpu0 | new | 10.0 | 10.0-12.0 | 0.50 |", lines[3])

    def test_count_table(self):
        r = {"entries": 1024, "online": 2, "possible": 256, "all": role(0.0, walks=0.001, pops=100000)}
        lines = mt_run.count_table({"mix/256/1024/2": {"base": [r]}}, ["base"])
        self.assertEqual(lines[2], "| 1024 | 2 | 256 | base | 100000 | 100 | 1000.0 | 255.0 | 0.001000 | 0 |")

    def test_kernel_table(self):
        r = {"clock": "icount", "scenario": "churn-insert", "entries": 1, "online": 2, "possible": 255,
             "pops": 4000, "walks": 2000, "visited": 510000, "stolen": 2000,
             "cpu0": {"role": "inserter", "ops": 2000, "fails": 1, "ns_op": 9000.4},
             "cpu1": {"role": "churner", "ops": 2000, "fails": 2, "ns_op": 7000.0}}
        lines = mt_run.kernel_table([r])
        self.assertEqual(lines[2], "| icount | 2 | 255 | churn-insert | 1 | 4000 | 2000 | 500000.0 "
                                   "| 255.0 | 2000 | 3 | inserter 9000 | churner 7000 |")
        r.update(online=1, walks=0, visited=0, stolen=0)
        del r["cpu1"]
        self.assertIn("| 0 | 0.0 | 0.0 | 0 | 1 | inserter 9000 |  |", mt_run.kernel_table([r])[2])

    def test_scan_cases_parse(self):
        cases = [mt_run.parse_case(c) for c in mt_run.SCAN_CASES.split()]
        self.assertEqual(len(cases), 32)
        self.assertTrue(all(c[0] == "hotcold" and c[3] <= c[1] for c in cases))

    def test_callgrind_ir(self):
        err = "==12== Callgrind, a call-graph generating cache profiler\n==12== Events    : Ir\n" \
              "==12== Collected : 123456789\n==12== \n==12== I   refs:      123456789\n"
        self.assertEqual(mt_run.callgrind_ir(err), 123456789)
        with self.assertRaises(RuntimeError):
            mt_run.callgrind_ir("==12== I   refs:      5\n")

    def test_icount_per_op_is_the_difference(self):
        calls = []

        class Out:
            returncode = 0

            def __init__(self, ir):
                self.stderr = "==1== Collected : %d\n" % ir

        def fake(cmd, **kw):
            calls.append(cmd)
            n = int(cmd[cmd.index("--ops") + 1])
            return Out(5000 + 7 * n)      # a fixed part, then 7 per op
        r = mt_run.icount_per_op("/b", ["--sim", "hotcold", "2"], 100, run_cmd=fake)
        self.assertEqual(r, {"ops": 100, "short": 5700, "long": 6400, "per_op": 7.0})
        self.assertIn("--toggle-collect=*hotcold_sim_ops*", calls[0])
        self.assertEqual([c[c.index("--ops") + 1] for c in calls], ["100", "200"])

    @staticmethod
    def sim(hits=900, live=0.99, ref_evicted=0, nr_scans=128, pops=1000, walks=0.0):
        return {"nr_scans": nr_scans, "target_free": 2, "lookups": 1000, "hits": hits, "live": live,
                "global": 500, "evicted": 1000, "ref_evicted": ref_evicted, "rotate_active": 1000,
                "rotate_inactive": 63000, "shrink_scan": 600, "force": 5, "force_scan": 10,
                "shrunk": 1000, "all": dict(role(0.0, walks=walks, pops=pops))}

    def test_scan_row(self):
        d = mt_run.scan_row(self.sim(ref_evicted=10))
        self.assertEqual((d["global_per_pop"], d["rotated_per_refill"], d["shrink_scan_per_refill"],
                          d["shrunk_per_refill"], d["forced_per_refill"]), (0.5, 128.0, 1.22, 2.0, 0.01))
        self.assertEqual((d["hit_rate"], d["ref_evictions_per_pop"], d["live"]), (0.9, 0.01, 0.99))

    def test_scan_table(self):
        res = {"hotcold/256/1024/2": {
            "base": {"count": self.sim(), "icount": {"per_op": 812.5},
                     "time": [{"all": role(100.0)}, {"all": role(120.0)}, {"all": role(110.0)}]},
            "new": {"count": self.sim(nr_scans=2), "icount": {"per_op": 400.0},
                    "time": [{"all": role(55.0)}, {"all": role(50.0)}, {"all": role(60.0)}]}},
            "hotcold/256/1024/64": {"base": {"count": self.sim()}, "new": {"count": self.sim(nr_scans=2)}}}
        lines = mt_run.scan_table(res, ["base", "new"])
        self.assertEqual(lines[2], "| 1024 | 2 | 256 | base | 128 | 812.5 | 110.0 | 100.0-120.0 | 1.00 | 0.500 "
                                   "| 128.0 | 1.2 | 2.00 | 0.010 | 0.9000 | 0.00000 | 0.9900 | 0.000000 |")
        self.assertIn("| new | 2 | 400.0 | 55.0 | 50.0-60.0 | 0.50 |", lines[3])
        self.assertIn("| 1024 | 64 | 256 | base | 128 |  |  |  |  | 0.500 |", lines[4])

    def test_choose_takes_the_first_that_never_loses(self):
        def res(**per):
            return {"c%d" % i: {n: {"count": self.sim(**kw)} for n, kw in [("base", {})] + list(per.items())}
                    for i in range(2)}
        r = res(small={"hits": 899}, mid={"live": 0.98}, big={"ref_evicted": 1}, ok={"hits": 950})
        choice, lines = mt_run.choose(r, ["base", "small", "mid", "big", "ok"])
        self.assertEqual(choice, "ok")
        self.assertIn("small: fails the rule in 2 of 2 cases: c0: hit rate 0.89900 < 0.90000", lines[0])
        self.assertIn("live share 0.980000 < 0.990000", lines[1])
        self.assertIn("ref evictions/pop 0.0010000 > 0.0000000", lines[2])
        self.assertEqual(lines[3:], ["- ok: passes the rule in all 2 cases", "- choice: ok"])
        self.assertEqual(mt_run.choose(res(small={"hits": 1}), ["base", "small"])[0], None)

    @staticmethod
    def seeds(hits=(900, 890, 910), live=(0.99, 0.989, 0.991), ref=(0, 0, 0)):
        return [{"seed": i + 1, "pops": 1000, "lookups": 1000, "hits": h, "live": v, "ref_evicted": r,
                 "force": 0, "global": 500} for i, (h, v, r) in enumerate(zip(hits, live, ref))]

    def spread_results(self, **per):
        return {"c": {n: {"count": self.sim(), "seeds": self.seeds(**kw)}
                      for n, kw in [("base", {})] + list(per.items())}}

    def test_choose_spread_median_against_the_base_lowest(self):
        # base: hit rates 0.89-0.91, live 0.989-0.991, no referenced eviction
        r = self.spread_results(
            low={"hits": (880, 885, 895)},                       # median 0.885 < 0.890
            live={"live": (0.9885, 0.9888, 0.995)},              # median 0.9888 < 0.989
            ref={"ref": (0, 0, 1)},                              # one referenced eviction
            noise={"hits": (889, 892, 950), "live": (0.9895, 0.989, 0.98)})   # medians in range
        choice, lines, rows = mt_run.choose_spread(r, ["base", "low", "live", "ref", "noise"])
        self.assertEqual(choice, "noise")
        self.assertEqual(lines[0], "- low: outside the base's spread (3 seeds) in 1 of 1 cases: "
                                   "c: hit rate 0.88500 < 0.89000")
        self.assertIn("c: live share 0.988800 < 0.989000", lines[1])
        self.assertIn("c: ref evictions/pop 0.0010000 > 0.0000000", lines[2])
        self.assertEqual(lines[3:], ["- noise: within the base's spread (3 seeds) in all 1 cases",
                                     "- choice: noise"])
        self.assertEqual(rows[2], "| c | base | 3 | 0.9000 | 0.8900-0.9100 | 0.990000 | 0.989000-0.991000 "
                                  "| 0.0000000 | 0 | (the base) |")
        self.assertTrue(rows[5].startswith("| c | ref |") and rows[5].endswith("| 1 | no: ref evictions |"))
        self.assertTrue(rows[6].endswith("| yes |"))

    def test_rule_table(self):
        r = self.spread_results(noise={"hits": (889, 892, 950)})
        r["c"]["noise"]["count"] = self.sim(hits=899)      # seed 1 alone: lower than the base's
        lines = mt_run.rule_table(r, ["base", "noise"], spread=True)
        self.assertEqual(lines[0], "| version | the issue's rule: cases lost | where "
                                   "| within the base's spread: cases lost | where |")
        self.assertEqual(lines[1], "|---|---|---|---|---|")
        self.assertEqual(lines[2], "| noise | 1 of 1 | c: hit rate 0.89900 < 0.90000 | 0 of 1 |  |")
        self.assertEqual(mt_run.rule_table(r, ["base", "noise"])[1], "|---|---|---|")

    def test_scan_seeds_runs_each_seed_of_each_version(self):
        runs = []

        def fake_run(binary, args):
            runs.append((binary, args))
            out = self.sim()
            if "--seed" in args:
                out["seed"] = int(args[args.index("--seed") + 1])
            return out
        res = mt_run.scan([("hotcold", 8, 1024, 64)], [("base", "/b"), ("new", "/n")],
                          [("base", "/bt"), ("new", "/nt")], reps=0, ms=50, ops=0, icount_ops=0,
                          jobs=1, run_json=fake_run, seeds=3)
        self.assertEqual([r["seed"] for r in res["hotcold/8/1024/64"]["new"]["seeds"]], [1, 2, 3])
        self.assertEqual(sorted((b, a[a.index("--seed") + 1]) for b, a in runs if "--seed" in a),
                         [("/bt", "2"), ("/bt", "3"), ("/nt", "2"), ("/nt", "3")])
        self.assertEqual(len(runs), 6)

    def test_gtest_summary_and_table(self):
        def t(name, fails=0, param=None):
            d = {"name": name, "file": "/x.cc", "time": "0s", "failures": [{"failure": "x"}] * fails}
            if param:
                d["value_param"] = param
            return d
        report = {"tests": 5, "failures": 2, "testsuites": [
            {"name": "Steal", "testsuite": [t("PopFinds")]},
            {"name": "Cpus/LruMapSanity3", "testsuite": [t("NewKeys/0", 0, "1"), t("NewKeys/1", 3, "2"),
                                                         t("NewKeys/2", 1, "4")]},
            {"name": "Race", "testsuite": [t("Nothing", 1)]}]}
        s = mt_run.gtest_summary(report)
        self.assertEqual((s["tests"], s["passed"]), (5, 2))
        self.assertEqual(s["failed"][0], {"test": "LruMapSanity3.NewKeys", "param": "2"})
        lines = mt_run.tests_table([("base", {"tests": 5, "passed": 5, "failed": []}), ("v", s)])
        self.assertEqual(lines[2], "| base | 5 | 5 | 0 |  |")
        self.assertEqual(lines[3], "| v | 5 | 2 | 3 | LruMapSanity3.NewKeys (2, 4); Race.Nothing |")

    def test_scan_runs_counts_icount_and_times_2_online_interleaved(self):
        runs = []

        def fake_run(binary, args):
            runs.append((binary, args))
            return {"all": role(1.0)} if "--sim" not in args else self.sim()
        cases = [("hotcold", 8, 1024, 2), ("hotcold", 64, 1024, 64)]
        res = mt_run.scan(cases, [("base", "/b"), ("new", "/n")], [("base", "/bt"), ("new", "/nt")],
                          reps=2, ms=50, ops=0, icount_ops=10, jobs=1, run_json=fake_run,
                          icount=lambda b, a, n: {"per_op": float(len(b))})
        self.assertEqual(res["hotcold/8/1024/2"]["new"]["icount"], {"per_op": 2.0})
        sims = [b for b, a in runs if "--sim" in a]
        self.assertEqual(sims, ["/bt", "/nt", "/bt", "/nt"])
        timed = [b for b, a in runs if "--sim" not in a]
        self.assertEqual(timed, ["/b", "/n", "/n", "/b"])    # only the 2-online case, rotated
        self.assertEqual(len(res["hotcold/8/1024/2"]["base"]["time"]), 2)
        self.assertNotIn("time", res["hotcold/64/1024/64"]["base"])


if __name__ == "__main__":
    unittest.main()
