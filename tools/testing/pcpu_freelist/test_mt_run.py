#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Unit tests of mt_run.py: python3 -m unittest test_mt_run (in this directory)."""
import contextlib
import io
import unittest

import mt_run

CASE = ("race:3:10000", "64")
VERSIONS = [("base", "b"), ("series", "s")]


def medians(ok, fail):
    """ns[(row, version)] with one value each: total ok/us and ns/fail per version."""
    rows = dict((f, r) for r, f in mt_run.rows(CASE, 2))
    ns = {(r, n): [1.0] for r, _ in mt_run.rows(CASE, 2) for n, _ in VERSIONS}
    for n, _ in VERSIONS:
        ns[(rows["ok_per_us"], n)] = [ok[n]]
        ns[(rows["ns_fail"], n)] = [fail[n]]
    return ns


def gate(ns):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        failed = mt_run.gate([CASE, ("exhausted", "64")], VERSIONS, ns, 2)
    return failed, out.getvalue()


class RaceRowsTest(unittest.TestCase):
    def test_a_race_has_total_and_per_cpu_rows(self):
        fields = [f for _, f in mt_run.rows(CASE, 2)]
        for f in ("ok_per_us", "c0_ok_per_us", "c1_ok_per_us", "ns_fail", "c1_ns_fail",
                  "ns_ok", "fail_per_us", "moves_per_us", "c0_moves_per_us"):
            self.assertIn(f, fields)
        self.assertNotIn("c2_ok_per_us", fields)

    def test_other_cases_keep_their_rows(self):
        self.assertEqual(mt_run.rows(("storm:3", "64")),
                         [("storm:3:64 stormer", "ns_stormer"),
                          ("storm:3:64 churner", "ns_churner")])
        self.assertEqual(mt_run.rows(("storm:3:10000", "64")),
                         [("storm:3:10000:64 stormer", "ns_stormer"),
                          ("storm:3:10000:64 churner", "ns_churner"),
                          ("storm:3:10000:64 stormer got/us", "got_per_us")])


class GateTest(unittest.TestCase):
    def test_equal_load_within_bounds_passes(self):
        failed, out = gate(medians({"base": 10.0, "series": 9.6}, {"base": 400, "series": 400}))
        self.assertEqual(failed, 0)
        self.assertIn("ok race:3:10000:64 series", out)
        self.assertNotIn("exhausted", out)  # only race cases are gated

    def test_fewer_inserts_fails(self):
        failed, out = gate(medians({"base": 10.0, "series": 9.4}, {"base": 400, "series": 100}))
        self.assertEqual(failed, 1)
        self.assertIn("FAIL race:3:10000:64 series: ok_per_us x0.940 < 0.95", out)

    def test_dearer_failed_insert_fails(self):
        failed, out = gate(medians({"base": 10.0, "series": 11.0}, {"base": 400, "series": 402}))
        self.assertEqual(failed, 1)
        self.assertIn("ns_fail x1.005 > 1.0", out)

    def test_a_base_without_failures_cannot_pass_a_series_with_some(self):
        failed, _ = gate(medians({"base": 10.0, "series": 10.0}, {"base": 0.0, "series": 5.0}))
        self.assertEqual(failed, 1)


if __name__ == "__main__":
    unittest.main()
