#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Unit tests of race_table.py: python3 test_race_table.py (in this directory)."""
import unittest

import race_table


def data(ok0, ok1, fail, ns_ok, ns_fail):
    c = "race:0:0:1:64"
    one = {"ok/us": ok0 + ok1, "ok/us cpu0": ok0, "ok/us cpu1": ok1, "moves/us": 1.0,
           "ns/ok": ns_ok, "ns/fail": ns_fail, "fail/us": fail}
    return {"versions": ["base"],
            "ns": {f"{c} {k}/base": [v, v, v] for k, v in one.items()}}


class RaceTable(unittest.TestCase):
    def row(self, d):
        return race_table.table(d).splitlines()[2].rstrip(" |").split(" | ")

    def test_share_is_cpu1_of_both(self):
        self.assertEqual(self.row(data(3.0, 1.0, 0.0, 100, 200))[5], "0.25")

    def test_pop_time_per_success_counts_the_failures(self):
        # 2 ok/us at 100 ns, 4 fail/us at 50 ns: (200 + 200) / 2 = 200 ns per success
        self.assertEqual(self.row(data(1.0, 1.0, 4.0, 100, 50))[10], "200")

    def test_one_row_per_case_and_version(self):
        self.assertEqual(len(race_table.table(data(1, 1, 0, 1, 1)).splitlines()), 3)


if __name__ == "__main__":
    unittest.main()
