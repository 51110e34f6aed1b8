import json
import os
import subprocess
import sys
import unittest

from readout import benchout
from readout import htab_mem_table as t

OURS = ("Setting up benchmark 'htab-mem'...\n"
        "Outcomes (add_del_on_diff_cpu, preallocated): updates ok 5, -EEXIST 0; out of turn 0\n"
        "Summary: per-prod-op    1.00 \u00B1    0.03k/s, memory usage    1.31 \u00B1    0.00MiB, "
        "peak memory usage    1.35MiB, map growth    0.63 \u00B1    0.00MiB, peak map growth    0.63MiB\n")
UPSTREAM = ("Setting up benchmark 'htab-mem-upstream'...\n"
            "Summary: per-prod-op    1.10 \u00B1    0.05k/s, memory usage    1.25 \u00B1    0.01MiB,"
            " peak memory usage    1.40MiB\n")


class Lines(unittest.TestCase):
    def test_ours_and_upstreams(self):
        self.assertEqual(benchout.htab_mem_line("barrier", "add_del_on_diff_cpu", "prealloc", OURS),
                         "htab-mem: add_del_on_diff_cpu prealloc barrier 1.00 1.31 1.35 0.63")
        self.assertEqual(benchout.htab_mem_line("upstream", "overwrite", "bpf-ma", UPSTREAM),
                         "htab-mem: overwrite bpf-ma upstream 1.10 1.25 1.40 -")

    def test_failed_run_and_warning(self):
        self.assertRegex(benchout.htab_mem_line("turn", "overwrite", "bpf-ma", "htab-mem: cannot open x\n"),
                         r"^htab-mem: overwrite bpf-ma turn fail no Summary line")
        warned = OURS.replace("Summary", "WARNING: 3 producers were triggered out of their turn\nSummary")
        self.assertEqual(benchout.htab_mem_line("turn", "overwrite", "bpf-ma", warned),
                         "htab-mem: overwrite bpf-ma turn fail WARNING: 3 producers were triggered "
                         "out of their turn")


class Table(unittest.TestCase):
    LOG = ("noise\n"
           "htab-mem: overwrite bpf-ma barrier 10.0 1.30 1.40 0.39\n"
           "htab-mem: overwrite bpf-ma upstream 10.5 1.20 1.30 -\n"
           "htab-mem: overwrite bpf-ma barrier 11.0 1.30 1.40 0.39\n"
           "htab-mem: overwrite bpf-ma upstream 10.5 1.20 1.30 -\n"
           "htab-mem: overwrite bpf-ma barrier 10.0 1.30 1.40 0.39\n"
           "htab-mem: overwrite bpf-ma upstream 11.5 1.20 1.30 -\n"
           "htab-mem: add_del_on_diff_cpu prealloc barrier 2.0 1.3 1.3 0.63\n"
           "htab-mem: add_del_on_diff_cpu prealloc upstream 1.0 1.2 1.2 -\n"
           "htab-mem: add_del_on_diff_cpu prealloc barrier 2.1 1.3 1.3 0.63\n"
           "htab-mem: add_del_on_diff_cpu prealloc upstream 1.1 1.2 1.2 -\n"
           "htab-mem: add_del_on_diff_cpu prealloc upstream fail boom\n")

    def test_medians_ratios_and_noise(self):
        lines = t.table(t.parse(self.LOG)).splitlines()
        self.assertEqual(lines[0].split(), ["use", "case", "flavour", "barrier", "k/s", "MiB", "x",
                                            "upstream", "upstream", "k/s", "MiB"])
        self.assertEqual(lines[1].split(), ["overwrite", "bpf-ma", "10.00", "1.30", "x0.95~",
                                            "10.50", "1.20"])
        # the failed upstream run is left out of its median
        self.assertEqual(lines[2].split(), ["add_del_on_diff_cpu", "prealloc", "2.05", "1.30",
                                            "x1.95", "1.05", "1.20"])

    def test_runs_file_gives_the_same_table(self):
        # scripts/measure.sh's runs file: the lines of each run under "htab_mem"
        runs = json.dumps(benchout.run_record("noise\n" + self.LOG, ["runner=htab-mem"])) + "\n"
        self.assertEqual(t.table(t.parse(t.lines_of(runs))), t.table(t.parse(self.LOG)))

    def test_bad_input(self):
        with self.assertRaisesRegex(t.TableError, "no htab-mem: lines"):
            t.parse("nothing\n")
        with self.assertRaisesRegex(t.TableError, "malformed line"):
            t.parse("htab-mem: overwrite bpf-ma barrier 1.0 x 1 1\n")

    def test_cli(self):
        entry = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "readout.py")
        p = subprocess.run([sys.executable, entry, "htab-mem-table", "table"],
                           input="", capture_output=True, text=True)
        self.assertEqual((p.returncode, p.stderr), (1, "readout.py htab-mem-table: error: no htab-mem: lines\n"))
        p = subprocess.run([sys.executable, entry, "htab-mem-table", "bogus"],
                           input="", capture_output=True, text=True)
        self.assertEqual(p.returncode, 2)


if __name__ == "__main__":
    unittest.main()
