"""Unit tests of splats.py, the one judge of a VM run's splats: the splat lines of a log built here,
and the unknown ones; readout.py judge on the logs of a run, and on every VM log of the records
(check-debug's consoles and the NMI runs' logs) with each base's known-splats; its --pattern, which
the guest greps its dmesg with, finds what SPLAT_RE finds."""
import contextlib
import glob
import io
import os
import subprocess
import tempfile
import unittest

from readout import LAB_ROOT, cli, splats
from readout.testkit import write

LOG = """\
[    1.000000] Linux version 7.3.4
12:[    2.500000] BUG: KCSAN: data-race in pcpu_freelist_pop / pcpu_freelist_push\r
[    2.500000] BUG: KCSAN: data-race in pcpu_freelist_pop / pcpu_freelist_push
13-[    3.000000] WARNING: CPU: 1 PID: 7 at kernel/bpf/x.c:1 f+0x1/0x2
[    4.000000] ok: no splat here
BUG: not a kernel message
[    5.000000] INFO: task kworker/0:1 blocked for more than 120 seconds.
"""


def judge(*argv):
    """readout.py judge ARGV...: its exit status, stdout and stderr."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = cli.main(["judge", *argv])
    return rc, out.getvalue(), err.getvalue()


class SplatsTest(unittest.TestCase):
    def test_a_log(self):
        got = splats.log_splats(LOG)
        self.assertEqual(got, ["[    2.500000] BUG: KCSAN: data-race in pcpu_freelist_pop / pcpu_freelist_push",
                               "[    3.000000] WARNING: CPU: 1 PID: 7 at kernel/bpf/x.c:1 f+0x1/0x2",
                               "[    5.000000] INFO: task kworker/0:1 blocked for more than 120 seconds."])
        known = "# known\n  pcpu_freelist_pop / pcpu_freelist_push  # the race it tolerates\n\n"
        self.assertEqual(splats.unknown_splats(got, known), got[1:])
        self.assertEqual(splats.unknown_splats(got, ""), got)

    def test_a_run_judged(self):
        with tempfile.TemporaryDirectory() as tmp:
            write(tmp, "out", "ok 1 a test\n[    3.000000] WARNING: CPU: 1 PID: 7 at kernel/bpf/x.c:1 f+0x1/0x2\n")
            write(tmp, "err", LOG)
            write(tmp, "known", "pcpu_freelist_pop  # the race it tolerates\n")
            # the splats of both logs, each once; the unknown ones named on stderr
            rc, out, err = judge(os.path.join(tmp, "known"), os.path.join(tmp, "out"), os.path.join(tmp, "err"))
            self.assertEqual((rc, out), (0, "3 2\n"))
            self.assertEqual(err, "unknown splat: [    3.000000] WARNING: CPU: 1 PID: 7 at kernel/bpf/x.c:1 f+0x1/0x2\n"
                                  "unknown splat: [    5.000000] INFO: task kworker/0:1 blocked for more than 120 seconds.\n")
            # a base without known-splats: every splat is unknown
            self.assertEqual(judge(os.path.join(tmp, "none"), os.path.join(tmp, "err"))[1], "3 3\n")
            self.assertEqual(judge(os.path.join(tmp, "known"), os.path.join(tmp, "out"))[:2], (0, "1 1\n"))

    def test_the_pattern_as_grep_reads_it(self):
        rc, out, _ = judge("--pattern")
        self.assertEqual(rc, 0)
        lines = [line for line in LOG.replace("\r", "").split("\n") if line]
        p = subprocess.run(["grep", "-E", out.rstrip("\n")], input="\n".join(lines) + "\n",
                           capture_output=True, text=True)
        self.assertEqual(p.stdout.splitlines(), [line for line in lines if splats.SPLAT_RE.search(line)])
        self.assertEqual(len(p.stdout.splitlines()), 5)

    def test_the_records_logs(self):
        logs = sorted(glob.glob(os.path.join(LAB_ROOT, "records/*/check-debug/*/console.log")) +
                      glob.glob(os.path.join(LAB_ROOT, "records/*/nmi/*/*.log")))
        self.assertGreater(len(logs), 5)
        found = 0
        for log in logs:
            base = os.path.relpath(log, os.path.join(LAB_ROOT, "records")).split("/")[0]
            known = os.path.join(LAB_ROOT, "config", base, "known-splats")
            got = splats.log_splats(splats.read(log))
            with self.subTest(log=os.path.relpath(log, LAB_ROOT)):
                rc, out, err = judge(known, log)
                unknown = splats.unknown_splats(got, splats.read(known))
                self.assertEqual((rc, out), (0, "%d %d\n" % (len(got), len(unknown))))
                self.assertEqual(err, "".join("unknown splat: %s\n" % s for s in unknown))
            found += len(got)
        self.assertGreater(found, 0)

if __name__ == "__main__":
    unittest.main()
