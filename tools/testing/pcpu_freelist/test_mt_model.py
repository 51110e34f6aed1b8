#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Unit tests of mt_model.py: python3 -m unittest test_mt_model (in this directory)."""
import unittest

import mt_model

CAL = "c_lock=5.0 c_pair=12.0 c_clean=2.0 c_pause=30.0 c_miss_read=60.0 c_miss_rmw=80.0\n"
SIM = ("role=stormer ops=10 ns=100.00 fixed=10.000 lock=1.000 remote_lock=0.500 "
       "clean_read=5.000 remote_read=5.000 miss_read=0.500 miss_rmw=0.500 hint_miss_read=0.000 "
       "hint_miss_rmw=0.000 shared_rmw=0.000 steps=1.000\n"
       "role=churner ops=20 ns=642.00 fixed=612.000 lock=2.000 remote_lock=0.000 "
       "clean_read=0.000 remote_read=0.000 miss_read=0.250 miss_rmw=0.1875 hint_miss_read=0.000 "
       "hint_miss_rmw=0.000 shared_rmw=0.000 steps=2.000\n")


class ModelTest(unittest.TestCase):
    def test_costs_parse_and_must_be_complete(self):
        c = mt_model.parse_costs(CAL)
        self.assertEqual(c["c_miss_rmw"], 80.0)
        with self.assertRaisesRegex(ValueError, "c_pause"):
            mt_model.parse_costs("c_lock=1 c_pair=1 c_clean=1 c_miss_read=1 c_miss_rmw=1")

    def test_prediction_is_fixed_plus_priced_events(self):
        c = mt_model.parse_costs(CAL)
        sim = mt_model.parse_sim(SIM)
        # 10 + 1*5 + 5*2 + 0.5*60 + 0.5*80 = 95
        self.assertAlmostEqual(mt_model.predict(sim["stormer"], c), 95.0)
        # 612 + 2*5 + 0.25*60 + 0.1875*80 = 652
        self.assertAlmostEqual(mt_model.predict(sim["churner"], c), 652.0)

    def test_error_is_relative_to_the_measurement(self):
        self.assertAlmostEqual(mt_model.rel_error(110, 100), 0.10)
        med, worst = mt_model.error_summary([(110, 100), (80, 100), (100, 100)])
        self.assertAlmostEqual(med, 0.10)
        self.assertAlmostEqual(worst, 0.20)

    def test_rows_match_mt_run(self):
        self.assertEqual(mt_model.row_name("own", 64, "cpu0"), "own:64")
        self.assertEqual(mt_model.row_name("storm:20", 64, "churner"), "storm:20:64 churner")
        self.assertEqual(mt_model.roles("storm:0"), ["stormer", "churner"])
        self.assertEqual(mt_model.roles("handoff"), ["consumer"])

    def test_stormlast_is_a_storm(self):
        # mt_run.py gives stormlast:H two rows, as storm:H
        self.assertEqual(mt_model.row_name("stormlast:0", 64, "stormer"),
                         "stormlast:0:64 stormer")
        self.assertEqual(mt_model.roles("stormlast:0"), ["stormer", "churner"])
        args, _ = mt_model.sim_args("stormlast:20", 16, robbable=True)
        self.assertIn("--robbable", args)

    def test_two_cpus_are_the_native_setup(self):
        args, possible = mt_model.sim_args("exhausted", 2)
        self.assertEqual(possible, 64)
        self.assertIn("--threads", args)
        args, possible = mt_model.sim_args("handoff", 256)
        self.assertEqual(args[args.index("--threads") + 1], "2")
        self.assertEqual(possible, 256)

    def test_robbable_is_for_storms_only(self):
        args, _ = mt_model.sim_args("storm:0", 16, robbable=True)
        self.assertIn("--robbable", args)
        args, _ = mt_model.sim_args("exhausted", 16, robbable=True)
        self.assertNotIn("--robbable", args)
        args, _ = mt_model.sim_args("storm:0", 16)
        self.assertNotIn("--robbable", args)


if __name__ == "__main__":
    unittest.main()
