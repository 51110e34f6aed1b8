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


if __name__ == "__main__":
    unittest.main()
