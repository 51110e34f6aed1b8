"""Unit tests of findings.py (make findings): the markers, the generators on scratch records, and
the check, on a scratch lab."""
import contextlib
import datetime
import io
import json
import os
import subprocess
import tempfile
import unittest

from readout import cli, findings, records
from readout.testkit import ENV, TRIALS_64, write

T0 = datetime.datetime(2026, 12, 5, 10, 0, 0, tzinfo=datetime.timezone.utc)
TRIALS = TRIALS_64 + """\
icount,base,1,2,hashmap,other,2.7,M/s
"""
MT = {"reps": 9, "versions": ["base", "series"],
      "medians": {"exhausted:64/base": 256.1, "exhausted:64/series": 5.5, "storm:0:64 churner/base": 80.0,
                  "storm:0:64 churner/series": 92.0},
      "ranges": {"exhausted:64/base": [250.0, 260.0], "exhausted:64/series": [5.0, 6.0],
                 "storm:0:64 churner/base": [70.0, 90.0], "storm:0:64 churner/series": [85.0, 99.0]}}



class Fixture(unittest.TestCase):
    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.root, self.data = os.path.join(tmp.name, "lab"), os.path.join(tmp.name, "data")
        os.makedirs(self.data)
        subprocess.run(["git", "init", "-q", self.root], check=True, env=ENV)
        for b in ("6.1", "7.3"):
            write(self.root, "config/%s/base.conf" % b, "BASE_PACKAGE=x\n")
        write(self.root, "config/default-base", "7.3\n")
        subprocess.run(["git", "-C", self.root, "add", "-A"], check=True, env=ENV)
        subprocess.run(["git", "-C", self.root, "commit", "-q", "-m", "lab"], check=True, env=ENV)
        self.when = T0

    def record(self, kind, name, files, base="7.3", **kw):
        paths = []
        for fname, content in files.items():
            path = os.path.join(self.data, "%d-%s" % (len(os.listdir(self.data)), fname.replace("/", "-")))
            write(self.data, os.path.basename(path), json.dumps(content) if isinstance(content, dict) else content)
            paths.append((fname, path))
        self.when += datetime.timedelta(minutes=1)
        return records.write(kind, name, "what", kw.pop("command", "the command"), kw.pop("clock", "icount"), paths,
                             base=base, lab_root=self.root, now=self.when, **kw)

    def page(self, text, name="p.md"):
        write(self.root, "Documentation/findings/" + name, text)
        return "Documentation/findings/" + name

    def run_main(self, *args):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = cli.main(["findings", "--root", self.root, *args])
        return rc, out.getvalue(), err.getvalue()

    def tables(self):
        return findings.Tables(self.root)


class GeneratorTest(Fixture):
    def test_icount_takes_the_newest_record_that_holds_the_trials(self):
        self.record("compare", "old", {"trials.csv": TRIALS.replace("2.900", "1.900")})
        self.record("compare", "new", {"trials.csv": TRIALS})
        self.record("compare", "newest", {"trials.csv": TRIALS.replace(",64,", ",16,")})
        out = self.tables().icount("full", "64", "255")
        self.assertEqual(out[2], "| 6.1 | 64 | not measured | | | |")
        self.assertEqual(out[4], "| 7.3 | 64 | 0.351 | 2.930 | **×8.35** | 2, 2 |")
        self.assertEqual(out[5], "| 7.3 | 255 | not measured | | | |")
        self.assertIn("[7.3/20261205-100200-new](../../records/7.3/compare/20261205-100200-new/)", out[-1])
        self.assertIn("Command: `the command`", out[-1])

    def test_mt_cases_with_roles(self):
        self.record("mt", "series", {"summary.json": MT, "mt.log": "log\n"}, clock="native")
        out = self.tables().mt("series", "series", "exhausted:64", "storm:0:64+churner", "handoff:64")
        self.assertEqual(out[0], "| case | 7.3: base → series, ns |")
        self.assertEqual(out[2], "| exhausted:64 | 256.1 → 5.5 (**×0.021**) |")
        self.assertEqual(out[3], "| storm:0:64 churner | 80.0 → 92.0 (**×1.15**) |")
        self.assertEqual(out[4], "| handoff:64 | - |")
        self.assertIn("Medians of 9 interleaved repetitions", out[6])

    def test_mt_versions_one_column_per_version(self):
        self.record("mt", "series", {"summary.json": MT, "mt.log": "log\n"}, clock="native")
        out = self.tables().mt_versions("7.3", "series", "base,series,v9", "exhausted:64")
        self.assertEqual(out[0], "| case | base | series | v9 |")
        self.assertEqual(out[2], "| exhausted:64 | 256.1 [250.0-260.0] | 5.5 [5.0-6.0] **×0.021** | - |")
        self.assertIn("Medians [min-max] of 9 interleaved repetitions", out[4])

    def test_race_phase_per_period(self):
        ns, tally = {}, {}
        for p, ok, rl in ((700, (10.0, 9.0), (0.03, 0.04)), (900, (10.0, 10.0), (0.03, 0.02))):
            for v, o, r in zip(("base", "series"), ok, rl):
                ns["race:3:%d:64 ok/us/%s" % (p, v)] = [o, o + 1, o - 1]
                for c in (0, 1):
                    tally["race:3:%d:64/c%d_rlock/%s" % (p, c, v)] = [r / 2] * 3
        self.record("mt", "phase", {"results.json": {"reps": 3, "ns": ns, "tally": tally}, "mt.log": "l\n"},
                    clock="native")
        out = self.tables().race_phase("7.3", "phase", "3")
        self.assertEqual(out[2], "| 700 | 10.00 → 9.00 (**×0.90**) | 0.030 → 0.040 |")
        self.assertEqual(out[3], "| 900 | 10.00 → 10.00 (**×1.00**) | 0.030 → 0.020 |")
        with self.assertRaises(findings.Error):
            self.tables().race_phase("7.3", "phase", "20")

    def test_compare_is_stats_table(self):
        self.record("compare", "speed", {"trials.csv": TRIALS}, base="6.1")
        out = self.tables().compare("6.1", "speed", "full")
        self.assertEqual(out[0], "| benchmark | possible CPUs | base | series | series vs base |")
        self.assertTrue(out[2].startswith("| full | 64 | 0.351 ± 0.001 M/s | 2.930 ± 0.042 M/s | +734.8%"))
        with self.assertRaisesRegex(findings.Error, "no compare record of 6.1 named slow"):
            self.tables().compare("6.1", "slow")

    def test_regress_prefers_a_whole_run(self):
        suite = {"suite": "test_progs", "wall": 60, "tests": [{"name": "a", "result": "OK"}, {"name": "b", "result": "SKIP"}]}
        broken = dict(suite, tests=[{"name": "a", "result": "FAIL"}, {"name": "b", "result": "SKIP"}])
        self.record("regress", "regress", {"base/test_progs.json": suite, "series/test_progs.json": suite},
                    clock="none", params={"allow": ""}, command="scripts/regress.sh")
        self.record("regress", "regress", {"base/test_progs.json": suite, "series/test_progs.json": broken},
                    clock="none", params={"allow": "a"}, command="scripts/regress.sh -a a")
        out = self.tables().regress()
        self.assertEqual(out[2], "| 6.1 | not measured | | | | |")
        self.assertEqual(out[3], "| 7.3 | every test | test_progs | 1, 1, 0 | 1, 1, 0 | **0** |")

    def test_regress_counts_the_suites_compared(self):
        # a series run of fewer suites against a recorded base of more (-B): both sides count the
        # suites compared, not the base's every suite
        progs = {"suite": "test_progs", "wall": 60, "tests": [{"name": "a", "result": "OK"}]}
        maps = {"suite": "test_maps", "wall": 60, "tests": [{"name": "test_maps", "result": "OK"}]}
        self.record("regress", "regress", {"base/test_progs.json": progs, "base/test_maps.json": maps,
                                           "series/test_progs.json": progs},
                    clock="none", params={"allow": ""}, command="scripts/regress.sh -B base test_progs")
        out = self.tables().regress()
        self.assertEqual(out[3], "| 7.3 | every test | test_progs | 1, 0, 0 | 1, 0, 0 | **0** |")

    def test_nmi_is_the_records_table(self):
        self.record("nmi", "nmi-stackmap-regress", {"table.md": "| kernel |\n|---|\n| base |\n"}, clock="wall-tcg")
        self.record("nmi", "nmi-stackmap-debug", {"table.md": "| kernel |\n|---|\n| other |\n"}, clock="wall-tcg")
        out = self.tables().nmi("7.3", "nmi-stackmap-regress")
        self.assertEqual(out[:4], ["| kernel |", "|---|", "| base |", ""])
        self.assertIn("nmi-stackmap-regress", out[4])
        with self.assertRaisesRegex(findings.Error, "no nmi record of 6.1 named nmi-stackmap-regress"):
            self.tables().nmi("6.1", "nmi-stackmap-regress")

    def test_mt_table_whole_or_filtered(self):
        table = ("| entries | version | hit rate |\n|---|---|---|\n| 1024 | base | 0.9 |\n| 1024 | new | 0.95 |\n"
                 "| 4096 | new | 0.97 |\n\nThe rule:\n- new: passes\n")
        self.record("mt", "lru-scan", {"results.json": {}, "table.md": "| old |\n|---|\n"}, clock="native")
        self.record("mt", "lru-scan", {"results.json": {}, "table.md": table}, clock="native")
        out = self.tables().mt_table("7.3", "lru-scan")
        self.assertEqual(out[:8], table.rstrip("\n").splitlines())
        self.assertIn("lru-scan", out[-1])
        out = self.tables().mt_table("7.3", "lru-scan", "entries=1024", "version=new,other")
        self.assertEqual(out[:4], ["| entries | version | hit rate |", "|---|---|---|", "| 1024 | new | 0.95 |", ""])
        with self.assertRaisesRegex(findings.Error, "no column size"):
            self.tables().mt_table("7.3", "lru-scan", "size=1")
        with self.assertRaisesRegex(findings.Error, "no row"):
            self.tables().mt_table("7.3", "lru-scan", "entries=5")
        with self.assertRaisesRegex(findings.Error, "no mt record of 6.1 named lru-scan"):
            self.tables().mt_table("6.1", "lru-scan")


class PageTest(Fixture):
    def setUp(self):
        super().setUp()
        self.record("mt", "series", {"summary.json": MT, "mt.log": "log\n"}, clock="native")
        self.text = ("# A claim\n\nProse.\n\n<!-- table: mt series series exhausted:64 (make findings) -->\n"
                     "<!-- end of table -->\n\nMore prose.\n")

    def test_write_then_check(self):
        page = self.page(self.text)
        self.assertEqual(self.run_main("--check")[0], 1)
        self.assertEqual(self.run_main()[0], 0)
        rc, out, _ = self.run_main("--check")
        self.assertEqual((rc, out), (0, ""))
        with open(os.path.join(self.root, page)) as f:
            text = f.read()
        self.assertTrue(text.startswith(self.text.split("<!-- end")[0] + "| case | 7.3: base → series, ns |\n"))
        self.assertTrue(text.endswith("<!-- end of table -->\n\nMore prose.\n"))
        write(self.root, page, text.replace("Prose.", "Prose, reworded."))
        self.assertEqual(self.run_main("--check")[0], 0)
        write(self.root, page, text.replace("**×0.021**", "**×0.021** (hand-made)"))
        rc, out, _ = self.run_main("--check")
        self.assertEqual((rc, out), (1, "Documentation/findings/p.md:5: the table 'mt series series exhausted:64' "
                                        "is not what the records give\n"))

    def test_bad_markers(self):
        cases = [("<!-- table: mt series series exhausted:64 (make findings) -->\n", "p.md:1: a table without its"),
                 ("<!-- table: guess (make findings) -->\n<!-- end of table -->\n", "p.md:1: no generator guess"),
                 ("<!-- table: mt series (make findings) -->\n<!-- end of table -->\n", "p.md:1: mt series: wrong "
                                                                                        "arguments"),
                 ("<!-- table: htab-mem 7.3 (make findings) -->\n<!-- end of table -->\n", "p.md:1: no htab-mem "
                                                                                           "record of 7.3"),
                 ("<!-- table: mt series -->\n", "p.md:1: expected '<!-- table: GENERATOR")]
        for text, message in cases:
            self.page(text)
            rc, _, err = self.run_main("--check")
            self.assertEqual(rc, 1, text)
            self.assertIn("readout.py findings: error: Documentation/findings/" + message, err)

    def test_picture_is_drawn_again_to_the_byte_and_follows_its_record(self):
        self.page("# Pop\n\n<!-- table: plot-exhausted series pop.svg (make findings) -->\n<!-- end of table -->\n")
        svg = os.path.join(self.root, "Documentation/findings/pop.svg")
        rc, out, _ = self.run_main("--check")
        self.assertEqual(rc, 1)
        self.assertIn("Documentation/findings/pop.svg: the picture is not what the records give", out)
        self.assertEqual(self.run_main()[0], 0)
        with open(svg, "rb") as f:
            first = f.read()
        self.assertIn(b"<svg", first)
        self.assertNotIn(b"<dc:date>", first)
        self.assertEqual(self.run_main()[0], 0)
        with open(svg, "rb") as f:
            self.assertEqual(f.read(), first)    # the same records: the same bytes
        self.assertEqual(self.run_main("--check")[:2], (0, ""))
        with open(os.path.join(self.root, "Documentation/findings/p.md")) as f:
            self.assertIn("![ns per exhausted pop against possible CPUs, base and series, log scales](pop.svg)\n", f.read())
        mt = dict(MT, medians=dict(MT["medians"], **{"exhausted:64/series": 9.5}))
        self.record("mt", "series", {"summary.json": mt, "mt.log": "log\n"}, clock="native")
        rc, out, _ = self.run_main("--check")
        self.assertEqual(rc, 1)
        self.assertIn("pop.svg: the picture is not what the records give", out)


if __name__ == "__main__":
    unittest.main()
