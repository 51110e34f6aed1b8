#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Unit tests of count_run.py: python3 test_count_run.py (in this directory)."""
import unittest

import count_run

# callgrind_annotate --inclusive=yes --tree=none --auto=no output, cut
ANNOTATE = """\
--------------------------------------------------------------------------------
Ir
--------------------------------------------------------------------------------
2,373,174 (100.0%)  PROGRAM TOTALS

--------------------------------------------------------------------------------
Ir                  file:function
--------------------------------------------------------------------------------
  213,000 ( 8.98%)  /tmp/x/percpu_freelist.c:pcpu_freelist_pop
  213,000 ( 8.98%)  x/percpu_freelist.c:pcpu_freelist_pop [/tmp/obj/pcpu_freelist_count]
  210,000 ( 8.85%)  x/percpu_freelist.c:___pcpu_freelist_pop [/tmp/obj/pcpu_freelist_count]
  122,560 ( 5.16%)  x/percpu_freelist.c:pcpu_freelist_push [/tmp/obj/pcpu_freelist_count]
   27,000 ( 1.14%)  /w/shim/asm/rqspinlock.h:___pcpu_freelist_pop
  363,022 (15.30%)  /w/pcpu_freelist_count.cc:(anonymous namespace)::ops(char, pcpu_freelist*, unsigned long) [/tmp/obj/pcpu_freelist_count]
"""


class CountRun(unittest.TestCase):
    def test_parse_takes_the_inclusive_counts_of_push_and_pop(self):
        got = count_run.parse_annotate(ANNOTATE)
        self.assertEqual(got, {"total": 2373174, "pcpu_freelist_pop": 213000,
                               "pcpu_freelist_push": 122560})

    def test_parse_refuses_output_without_totals(self):
        with self.assertRaises(ValueError):
            count_run.parse_annotate("nothing here\n")

    def test_per_op_is_the_difference_of_two_run_lengths(self):
        a = {"total": 2131174, "pcpu_freelist_push": 42560, "pcpu_freelist_pop": 71000}
        b = {"total": 2373174, "pcpu_freelist_push": 122560, "pcpu_freelist_pop": 213000}
        got = count_run.per_op(a, b, 1000, 3000)
        self.assertEqual(got, {"total": 121.0, "pcpu_freelist_push": 40.0,
                               "pcpu_freelist_pop": 71.0})

    def res(self, own_series):
        r = {"pcpu_freelist_push": 40.0, "pcpu_freelist_pop": 71.0, "total": 0}
        s = {"pcpu_freelist_push": own_series - 60.0, "pcpu_freelist_pop": 60.0, "total": 0}
        return {"own:64": {"base": r, "series": s}, "exhausted:64": {"base": r, "series": r}}

    def test_gate_passes_at_the_reference_count(self):
        lines, failed = count_run.gate([("own", "64"), ("exhausted", "64")],
                                       ["base", "series"], self.res(111.0), "series")
        self.assertEqual(failed, 0)
        self.assertEqual(len(lines), 1)     # exhausted is not gated
        self.assertTrue(lines[0].startswith("ok: own:64"))

    def test_gate_fails_one_instruction_over(self):
        lines, failed = count_run.gate([("own", "64")], ["base", "series"],
                                       self.res(112.0), "series")
        self.assertEqual(failed, 1)
        self.assertTrue(lines[0].startswith("FAIL: own:64"))


if __name__ == "__main__":
    unittest.main()
