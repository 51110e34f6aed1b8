# SPDX-License-Identifier: GPL-2.0-only
"""Unit tests of race_spread.py: python3 -m unittest test_race_spread (in this directory)."""
import unittest

from readout import race_spread


def run(base_ok, series_ok, series_moves):
    c = "race:20:1000:64"
    ns = {f"{c} ok/us/base": base_ok, f"{c} moves/us/base": [1, 2, 3],
          f"{c} fail/us/base": [1, 1, 2],
          f"{c} ok/us/series": series_ok, f"{c} moves/us/series": series_moves,
          f"{c} fail/us/series": [5, 5, 5.5]}
    return {"versions": ["base", "series"], "ns": ns}


class SpreadTest(unittest.TestCase):
    def test_ratio_per_run_and_correlation_over_repetitions(self):
        rows = race_spread.spread([run([10, 10, 10], [9, 8, 7], [1, 2, 3]),
                                   run([10, 10, 10], [11, 10, 10], [0, 1, 1])])
        case, v, ratios, r_moves, _ = rows[0]
        self.assertEqual((case, v), ("race:20:1000:64", "series"))
        self.assertEqual([round(x, 2) for x in ratios], [0.8, 1.0])
        self.assertLess(r_moves, -0.8)  # fewer inserts where the element moved more
        self.assertEqual(rows[1][1:3], ("base", None))

    def test_unknown_reference_is_an_error(self):
        with self.assertRaisesRegex(ValueError, "no version v9"):
            race_spread.spread([run([1, 2, 3], [1, 2, 3], [1, 2, 3])], "v9")

    def test_pearson_of_constant_series_is_nan(self):
        self.assertNotEqual(race_spread.pearson([1, 1, 1], [1, 2, 3]),
                            race_spread.pearson([1, 1, 1], [1, 2, 3]))


if __name__ == "__main__":
    unittest.main()
