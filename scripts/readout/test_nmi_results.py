"""Unit tests of nmi_results.py (scripts/nmi-stackmap.sh): reading nmi_stackmap's lines in a VM log.

Plant of test_a_failed_run_reads_not_ok: the result line's "not ok" read as ok:
  sed -i 's/out\\["ok"\\] = m\\[1\\] == "ok"/out["ok"] = True/' nmi_results.py
"""
import contextlib
import io
import os
import tempfile
import unittest

from readout import cli
from readout import nmi_results as nr

LOG = """\
>>> booting\r
TAP version 13\r
1..1\r
# 10.0 s: task on CPU 1 (81920 loops, 40960 deletes), sysrq 'l' from CPU 0, 5123 NMIs\r
# nmi: 5120 bpf_get_stackid() (512/s): 300 ok, 4800 -ENOMEM, 20 other errors\r
# task: 81920 bpf_get_stackid() (8192/s): 81000 ok, 920 -ENOMEM, 0 other errors\r
# kernel: tainted 0 -> 0, debug_locks 1 -> 1\r
ok 1 nmi_stackmap: 4800 pops in NMI found no node (-ENOMEM)\r
"""


class Parse(unittest.TestCase):
    def test_reads_every_count(self):
        r = nr.parse(LOG)
        self.assertEqual(r["seconds"], 10.0)
        self.assertEqual((r["nmis"], r["loops"], r["deletes"]), (5123, 81920, 40960))
        self.assertEqual(r["nmi"], dict(calls=5120, rate=512, ok=300, nomem=4800, other=20))
        self.assertEqual(r["task"]["nomem"], 920)
        self.assertEqual(r["kernel"], (0, 0, 1, 1))
        self.assertTrue(r["ok"])

    def test_a_failed_run_reads_not_ok(self):
        r = nr.parse(LOG.replace("ok 1 nmi_stackmap: 4800 pops", "not ok 1 nmi_stackmap: 0 pops"))
        self.assertFalse(r["ok"])

    def test_a_log_without_the_tool_is_an_error(self):
        with self.assertRaisesRegex(nr.Error, "no seconds, nmi, task, kernel, ok line"):
            nr.parse(">>> booting\nKernel panic\n")
        with self.assertRaisesRegex(nr.Error, "no ok line"):
            nr.parse(LOG.rsplit("ok 1", 1)[0])


class Main(unittest.TestCase):
    def run_main(self, argv):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = cli.main(["nmi-results", *argv])
        return rc, out.getvalue(), err.getvalue()

    def test_table_names_each_kernel_with_its_splats(self):
        with tempfile.TemporaryDirectory() as d:
            for name in ("base", "series"):
                with open(os.path.join(d, name + ".log"), "w") as f:
                    f.write(LOG)
            rc, out, _ = self.run_main([os.path.join(d, "base.log=2,0"), os.path.join(d, "series.log")])
        self.assertEqual(rc, 0)
        lines = out.splitlines()
        self.assertEqual(len(lines), 4)
        self.assertTrue(lines[2].startswith("| base | 10.0 | 5123 | 512 | 300 | 4800 | 20 | 81920 |"))
        self.assertIn("| untainted, on | 2 (0) | ok |", lines[2])
        self.assertIn("| - | ok |", lines[3])

    def test_a_tainted_kernel_and_lockdep_off_show(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "series.log"), "w") as f:
                f.write(LOG.replace("tainted 0 -> 0, debug_locks 1 -> 1", "tainted 0 -> 512, debug_locks 1 -> 0"))
            rc, out, _ = self.run_main([os.path.join(d, "series.log")])
        self.assertEqual(rc, 0)
        self.assertIn("| tainted 0 -> 512, off |", out.splitlines()[2])

    def test_a_missing_log_is_one_line_and_exit_1(self):
        rc, out, err = self.run_main(["/nonexistent/base.log"])
        self.assertEqual((rc, out), (1, ""))
        self.assertEqual(err.count("\n"), 1)
        self.assertIn("/nonexistent/base.log", err)


if __name__ == "__main__":
    unittest.main()
