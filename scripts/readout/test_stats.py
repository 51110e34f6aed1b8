"""Unit tests of the statistics behind `make compare`, on fixed inputs."""
import unittest

from readout import stats


def rows(variant_values, clock="wall", bench="b", possible=2):
    return [{"clock": clock, "variant": v, "trial": str(i), "possible_cpus": str(possible),
             "family": "f", "benchmark": bench, "value": str(x), "unit": "M/s"}
            for v, values in variant_values for i, x in enumerate(values)]


class WelchTest(unittest.TestCase):
    def test_known_significant_pair(self):
        a = [10.0, 10.2, 9.9, 10.1, 10.0]
        b = [12.0, 12.1, 11.8, 12.2, 11.9]
        self.assertLess(stats.welch_p_value(a, b), 1e-6)
        self.assertEqual(stats.mark(a, b), "")

    def test_known_insignificant_pair(self):
        a = [10.0, 12.0, 9.0, 11.0, 10.5]
        b = [10.4, 11.5, 9.6, 10.9, 10.1]
        self.assertGreater(stats.welch_p_value(a, b), 0.5)
        self.assertEqual(stats.mark(a, b), "~")

    def test_reference_value(self):
        # Welch's t = 2.0 with df = 8 for these samples; p = 0.0805 (two-sided).
        p = stats.welch_p_value([1, 2, 3, 4, 5], [3, 4, 5, 6, 7])
        self.assertAlmostEqual(p, 0.0805, places=3)

    def test_single_trial_is_not_applicable(self):
        self.assertIsNone(stats.welch_p_value([5.0], [6.0, 6.1]))
        self.assertEqual(stats.mark([5.0], [6.0]), "n/a")
        out = stats.table(rows([("base", [5.0]), ("series", [6.0])]))
        self.assertIn("+20.0% n/a", out)

    def test_exact_repeats(self):
        # The icount clock repeats to the last digit: equal means are no change, others are.
        self.assertEqual(stats.mark([5.0, 5.0], [5.0, 5.0]), "~")
        self.assertEqual(stats.mark([5.0, 5.0], [5.5, 5.5]), "")

    def test_table_row(self):
        out = stats.table(rows([("base", [10.0, 10.2, 9.9]), ("series", [12.0, 12.1, 11.8])]))
        self.assertIn("| b | 2 | 10.033 ± 0.153 M/s | 11.967 ± 0.153 M/s | +19.3% |", out)
        self.assertIn("### Clock: wall", out)


if __name__ == "__main__":
    unittest.main()
