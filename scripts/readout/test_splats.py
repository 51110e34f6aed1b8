"""Unit tests of splats.py: the same splat lines as scripts/lib/guest.sh's log_splats, and the same
unknown ones as its unknown_splats, on every VM log of the records (check-debug's consoles and the
NMI runs' logs) with each base's known-splats; and on a log built here."""
import glob
import os
import subprocess
import tempfile
import unittest

from readout import LAB_ROOT, splats
from readout.testkit import ENV, write

LOG = """\
[    1.000000] Linux version 7.3.4
12:[    2.500000] BUG: KCSAN: data-race in pcpu_freelist_pop / pcpu_freelist_push\r
[    2.500000] BUG: KCSAN: data-race in pcpu_freelist_pop / pcpu_freelist_push
13-[    3.000000] WARNING: CPU: 1 PID: 7 at kernel/bpf/x.c:1 f+0x1/0x2
[    4.000000] ok: no splat here
BUG: not a kernel message
[    5.000000] INFO: task kworker/0:1 blocked for more than 120 seconds.
"""


def lib_sh(script, *args, stdin=""):
    env = {k: v for k, v in ENV.items() if k != "BASE"}
    p = subprocess.run(["bash", "-c", '. "$0/scripts/lib.sh" && ' + script, LAB_ROOT, *args],
                       input=stdin, capture_output=True, text=True, env=env, errors="replace")
    if p.returncode:
        raise AssertionError("scripts/lib.sh: %s" % p.stderr.strip())
    return p.stdout.splitlines()


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


class SplatsTest(unittest.TestCase):
    def test_a_log(self):
        got = splats.log_splats(LOG)
        self.assertEqual(got, ["[    2.500000] BUG: KCSAN: data-race in pcpu_freelist_pop / pcpu_freelist_push",
                               "[    3.000000] WARNING: CPU: 1 PID: 7 at kernel/bpf/x.c:1 f+0x1/0x2",
                               "[    5.000000] INFO: task kworker/0:1 blocked for more than 120 seconds."])
        known = "# known\n  pcpu_freelist_pop / pcpu_freelist_push  # the race it tolerates\n\n"
        self.assertEqual(splats.unknown_splats(got, known), got[1:])
        self.assertEqual(splats.unknown_splats(got, ""), got)

    def test_a_log_as_lib_sh(self):
        with tempfile.TemporaryDirectory() as tmp:
            write(tmp, "log", LOG)
            write(tmp, "known", "pcpu_freelist_pop\n")
            self.assertEqual(splats.log_splats(LOG), lib_sh('log_splats "$1"', os.path.join(tmp, "log")))
            self.assertEqual(splats.unknown_splats(splats.log_splats(LOG), "pcpu_freelist_pop\n"),
                             lib_sh('log_splats "$1" | unknown_splats "$2"', os.path.join(tmp, "log"),
                                    os.path.join(tmp, "known")))

    def test_the_records_logs_as_lib_sh(self):
        logs = sorted(glob.glob(os.path.join(LAB_ROOT, "records/*/check-debug/*/console.log")) +
                      glob.glob(os.path.join(LAB_ROOT, "records/*/nmi/*/*.log")))
        self.assertGreater(len(logs), 5)
        found = 0
        for log in logs:
            base = os.path.relpath(log, os.path.join(LAB_ROOT, "records")).split("/")[0]
            known = os.path.join(LAB_ROOT, "config", base, "known-splats")
            got = splats.log_splats(read(log))
            with self.subTest(log=os.path.relpath(log, LAB_ROOT)):
                self.assertEqual(got, lib_sh('log_splats "$1"', log))
                self.assertEqual(splats.unknown_splats(got, read(known) if os.path.isfile(known) else ""),
                                 lib_sh('log_splats "$1" | unknown_splats "$2"', log, known))
            found += len(got)
        self.assertGreater(found, 0)


if __name__ == "__main__":
    unittest.main()
