"""Unit tests of regress_results.py (make regress): parsing the suites' output, and the diff.

Plant of test_record_keeps_a_base_recorded_in_place: the record removes DOC/LABEL before it
copies (what regress.sh did: `-B <the recorded base> -R` deleted the base, when -R recorded in place):
  sed -i 's/^        staged = dest + ".new"$/        shutil.rmtree(dest, ignore_errors=True); staged = dest + ".new"/' regress_results.py
Plants of test_times_reads_whole_tests_ok_on_both: quartiles that extrapolate (statistics'
default, method="exclusive": 0.25-4.75 for 1 and 4); flaky tests counted; subtests counted as tests:
  sed -i 's/, method="inclusive")/)/' regress_results.py
  sed -i 's/ and not t.get("flaky")//' regress_results.py
  sed -i 's/ and n in series and "\\/" not in n}/ and n in series}/' regress_results.py
Plant of test_ran_reads_a_whole_suite_and_its_limit: the record's whole_limit not read:
  sed -i 's/    if "whole_limit" in params:/    if False:/' regress_results.py
"""
import contextlib
import io
import json
import os
import tempfile
import unittest

from readout import cli
from readout import regress_results as rr

PROGS_OUT = """\
lab-regress: start htab_update
#86/1    htab_update/reenter_update:OK
#86      htab_update:OK
Summary: 1/1 PASSED, 0 SKIPPED, 0 FAILED
lab-regress: end htab_update rc=0 secs=3
lab-regress: start for_each
#60/1    for_each/hash_map:OK
#60/2    for_each/array_map:SKIP
#60/3    for_each/pcpu: with spaces:FAIL
#60      for_each:FAIL
lab-regress: end for_each rc=1 secs=4
lab-regress: start btf
lab-regress: end btf rc=1 secs=2
lab-regress: start timer
lab-regress: end timer rc=137 secs=900
lab-regress: start map_kptr
lab-regress: lost map_kptr CRASH
lab-regress: start lookup_and_delete
#99      lookup_and_delete:OK
lab-regress: end lookup_and_delete rc=0 secs=1
lab-regress: done
lab-regress: start bpf_cookie
#10/6    bpf_cookie/perf_event:FAIL
#10      bpf_cookie:FAIL
lab-regress: end bpf_cookie rc=1 secs=4
lab-regress: done
lab-regress: start bpf_cookie
#10/6    bpf_cookie/perf_event:OK
#10      bpf_cookie:OK
lab-regress: end bpf_cookie rc=0 secs=4
lab-regress: done
lab-regress: retried
"""

VERIFIER_OUT = """\
lab-regress: start test_verifier
#0/u invalid and of negative number OK
#0/p invalid and of negative number OK
#1/p unreachable FAIL
Unexpected error message!
#2/u with OK in it SKIP (unsupported)
#3/p runs 2 cases OK
#4/p misaligned OK (NOTE: not executed due to unknown alignment)
#5/p retval (run 1/1) FAIL retval 2 != 1
Summary: 2 PASSED, 1 SKIPPED, 1 FAILED
lab-regress: end test_verifier rc=1 secs=100
lab-regress: done
"""


# test_progs -J as 6.12's and 7.3's write it (json_writer, test_progs.c's
# calculate_summary_and_print_errors()): the counts, and the failed tests with their failed subtests
# and logs; a test that passed or skipped is in the counts only. regress-guest.sh prints it after
# the run's end marker, on one line.
JSON_FAILED = json.dumps({
    "success": 0, "success_subtest": 1, "skipped": 1, "failed": 1, "failed_subtest": 1,
    "results": [{"name": "for_each", "number": 60, "message": "", "failed": True, "subtests": [
        {"name": "pcpu: with spaces", "number": 3, "failed": True,
         "message": "test_pcpu:PASS:skel_open 0 nsec\ntest_pcpu:FAIL:lookup unexpected error: -2\n"}]}]})
PROGS_JSON_OUT = f"""\
lab-regress: start for_each
#60/1    for_each/hash_map:OK
#60/2    for_each/array_map:SKIP
#60/3    for_each/pcpu: with spaces:FAIL
#60      for_each:FAIL
lab-regress: end for_each rc=1 secs=4
lab-regress: json for_each {JSON_FAILED}
lab-regress: start ringbuf
#61/2    ringbuf/ringbuf_n:FA[   12.345678] random: crng init done
lab-regress: end ringbuf rc=1 secs=2
lab-regress: json ringbuf {{"success": 0, "success_subtest": 1, "skipped": 0, "failed": 1, "failed_subtest": 1, "results": [{{"name": "ringbuf", "number": 61, "message": "", "failed": true, "subtests": [{{"name": "ringbuf_n", "number": 2, "message": "ringbuf_n:FAIL:sample count 3 != 4", "failed": true}}]}}]}}
lab-regress: start xdp_bonding
#98      xdp_bonding:SKIP
lab-regress: end xdp_bonding rc=0 secs=1
lab-regress: json xdp_bonding {{"success": 0, "success_subtest": 0, "skipped": 1, "failed": 0, "failed_subtest": 0, "results": []}}
lab-regress: start xdp_attach
lab-regress: end xdp_attach rc=0 secs=1
lab-regress: json xdp_attach {{"success": 0, "success_subtest": 0, "skipped": 1, "failed": 0, "failed_subtest": 0, "results": []}}
lab-regress: start btf
lab-regress: end btf rc=1 secs=2
lab-regress: json btf {{"success": 1, "success_subtest": 0, "skipped": 0, "failed": 0, "failed_subtest": 0, "results": []}}
lab-regress: start timer
lab-regress: end timer rc=137 secs=900
lab-regress: done
"""


class Marks(unittest.TestCase):
    """regress.sh's resume loop asks its questions of the markers here (marks)."""

    def ask(self, question, text, *name):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "out")
            with open(path, "w") as f:
                f.write(text)
            return rr.marks(question, path, *name)

    def test_the_questions(self):
        self.assertEqual(self.ask("finished", PROGS_OUT),
                         ["bpf_cookie", "btf", "for_each", "htab_update", "lookup_and_delete", "map_kptr", "timer"])
        self.assertEqual(self.ask("failed", PROGS_OUT), ["bpf_cookie", "btf", "for_each", "map_kptr", "timer"])
        self.assertEqual(self.ask("started", PROGS_OUT), ["bpf_cookie"])
        self.assertEqual((self.ask("done", PROGS_OUT), self.ask("retried", PROGS_OUT)), (True, True))

    def test_a_run_cut_short(self):
        # a VM that died in b: no done, b started and not ended; a ended; a console line is no marker
        text = ("lab-regress: start a\nlab-regress: end a rc=0 secs=1\nlab-regress: start b\n"
                "[    4.000000] lab-regress: end b rc=0 secs=2\nlab-regress: done now\n")
        self.assertEqual((self.ask("started", text), self.ask("finished", text), self.ask("failed", text)),
                         (["b"], ["a"], []))
        self.assertEqual((self.ask("ended", text, "a"), self.ask("ended", text, "b")), (True, False))
        self.assertEqual((self.ask("done", text), self.ask("retried", text)), (False, False))
        self.assertEqual(self.ask("started", ""), [])

    def test_cli(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "out")
            with open(path, "w") as f:
                f.write(PROGS_OUT)
            buf = io.StringIO()
            with contextlib.redirect_stdout(buf):
                self.assertEqual(cli.main(["regress-results", "marks", "failed", path]), 0)
                self.assertEqual(cli.main(["regress-results", "marks", "ended", path, "map_kptr"]), 1)
                self.assertEqual(cli.main(["regress-results", "marks", "done", path]), 0)
            self.assertEqual(buf.getvalue(), "bpf_cookie\nbtf\nfor_each\nmap_kptr\ntimer\n")
            with contextlib.redirect_stderr(io.StringIO()):
                self.assertEqual(cli.main(["regress-results", "marks", "ended", path]), 2)


class Results(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)

    def path(self, *names):
        p = os.path.join(self.dir.name, *names)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        return p

    def parse(self, suite, text, denied=""):
        with open(self.path("out"), "w") as f:
            f.write(text)
        with open(self.path("denied"), "w") as f:
            f.write(denied)
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            rr.parse(suite, self.path("out"), self.path("denied"), "61")
        return json.loads(buf.getvalue())

    def results(self, d):
        return {t["name"]: t["result"] for t in d["tests"]}

    def test_test_progs(self):
        d = self.parse("test_progs", PROGS_OUT, "get_stack_raw_tp\n")
        self.assertEqual(d["tests"][-1], {"name": "get_stack_raw_tp", "result": "DENIED"})
        self.assertEqual(self.results(d), {
            "get_stack_raw_tp": "DENIED", "htab_update/reenter_update": "OK", "htab_update": "OK",
            "for_each/hash_map": "OK", "for_each/array_map": "SKIP",
            "for_each/pcpu: with spaces": "FAIL", "for_each": "FAIL",
            "btf": "FAIL",            # non-zero exit without a result line
            "timer": "TIMEOUT",       # killed by its time limit
            "map_kptr": "CRASH",      # the VM died in it
            "lookup_and_delete": "OK",
            "bpf_cookie/perf_event": "OK", "bpf_cookie": "OK"})  # failed, then passed: flaky
        flaky = [t["name"] for t in d["tests"] if t.get("flaky")]
        self.assertEqual(flaky, ["bpf_cookie/perf_event", "bpf_cookie"])
        self.assertEqual(d["wall"], 61)

    def test_death_after_a_tests_end_is_its_crash(self):
        # regress.sh marks the test that ended last lost when the kernel died before the next one
        # started; run again alone and passing, it is flaky
        text = ("lab-regress: start a\n#1      a:OK\nlab-regress: end a rc=0 secs=1\n"
                "lab-regress: lost a CRASH after its end\n"
                "lab-regress: start b\n#2      b:OK\nlab-regress: end b rc=0 secs=1\nlab-regress: done\n")
        self.assertEqual(self.results(self.parse("test_progs", text)), {"a": "CRASH", "b": "OK"})
        d = self.parse("test_progs", text + "lab-regress: start a\n#1      a:OK\n"
                       "lab-regress: end a rc=0 secs=1\nlab-regress: done\nlab-regress: retried\n")
        self.assertEqual([(t["name"], t["result"], t.get("flaky")) for t in d["tests"]],
                         [("a", "OK", True), ("b", "OK", None)])

    def test_test_progs_json_summary(self):
        d = self.parse("test_progs", PROGS_JSON_OUT)
        self.assertEqual(self.results(d), {
            "for_each/hash_map": "OK", "for_each/array_map": "SKIP",   # from the text
            "for_each/pcpu: with spaces": "FAIL", "for_each": "FAIL",
            "ringbuf": "FAIL",
            "ringbuf/ringbuf_n": "FAIL",  # its text line was cut by a kernel message: from the JSON
            "xdp_bonding": "SKIP",
            "xdp_attach": "SKIP",         # no text line at all: the text alone says OK (rc 0)
            "btf": "FAIL",                # exit status 1: a summary that says success does not clear it
            "timer": "TIMEOUT"})          # killed: no summary
        logs = {t["name"]: t.get("log") for t in d["tests"]}
        self.assertEqual(logs["for_each/pcpu: with spaces"],
                         "test_pcpu:PASS:skel_open 0 nsec | test_pcpu:FAIL:lookup unexpected error: -2")
        self.assertEqual(logs["ringbuf/ringbuf_n"], "ringbuf_n:FAIL:sample count 3 != 4")

    def test_text_alone_without_json(self):
        # 6.1's test_progs has no -J: the same runs without their JSON lines
        text = "\n".join(line for line in PROGS_JSON_OUT.splitlines()
                         if not line.startswith("lab-regress: json ")) + "\n"
        r = self.results(self.parse("test_progs", text))
        self.assertEqual((r["ringbuf"], r["xdp_attach"], r["xdp_bonding"]), ("FAIL", "OK", "SKIP"))
        self.assertNotIn("ringbuf/ringbuf_n", r)

    def test_unreadable_json_is_one_line(self):
        text = "lab-regress: start a\nlab-regress: end a rc=0 secs=1\nlab-regress: json a {\"success\": 1}\n"
        with self.assertRaises(cli.Error) as e:
            self.parse("test_progs", text)
        self.assertEqual(str(e.exception),
                         "a: unreadable test_progs JSON summary: 'skipped'")

    def test_missing_console_is_one_line(self):
        # runs kept without their kernel log (a copy of .out alone): their splats are unknown
        with open(self.path("out"), "w") as f:
            f.write(PROGS_OUT)
        with open(self.path("denied"), "w") as f:
            f.write("")
        with self.assertRaises(cli.Error) as e:
            rr.parse("test_progs", self.path("out"), self.path("denied"), "1", self.path("console"))
        self.assertEqual(str(e.exception), f"{self.path('out')}: its console "
                         f"{self.path('console')} is missing, so the splats of its runs are unknown")

    def test_splats_belong_to_their_test(self):
        with open(self.path("console"), "w") as f:
            f.write("[    1.000000] Linux version 6.1.192\n"
                    "[    2.000000] lab-regress: start timer\n"
                    "[    3.123456] WARNING: CPU: 1 PID: 77 at kernel/bpf/helpers.c:1100 foo+0x1f/0x30\n"
                    "[    4.000000] lab-regress: end timer rc=0 secs=2\n"
                    "[    5.000000] BUG: sleeping function called from invalid context\n")
        with open(self.path("out"), "w") as f:
            f.write(PROGS_OUT)
        with open(self.path("denied"), "w") as f:
            f.write("")
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            rr.parse("test_progs", self.path("out"), self.path("denied"), "1", self.path("console"))
        d = json.loads(buf.getvalue())
        with open(self.path("denied"), "w") as f:
            f.write("tim*\n")
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            rr.parse("test_progs", self.path("out"), self.path("denied"), "1", self.path("console"))
        self.assertEqual(json.loads(buf.getvalue())["splats"], [   # a denied test's splats do not count
            {"test": None, "splat": "BUG: sleeping function called from invalid context"}])
        self.assertEqual(d["splats"], [
            {"test": "timer", "splat": "WARNING: CPU: N PID: N at kernel/bpf/helpers.c:N foo+N/N"},
            {"test": None, "splat": "BUG: sleeping function called from invalid context"}])

    def test_diff_names_a_new_splat(self):
        self.write("base", "test_maps", {"test_maps": "OK"})
        self.write("series", "test_maps", {"test_maps": "OK"})
        with open(self.path("series", "test_maps.json")) as f:
            d = json.load(f)
        d["splats"] = [{"test": "test_maps", "splat": "possible circular locking dependency detected"}]
        with open(self.path("series", "test_maps.json"), "w") as f:
            json.dump(d, f)
        rc, out = self.diff()
        self.assertEqual(rc, 1)
        self.assertIn("REGRESSION: test_maps: test_maps: kernel splat not seen on the base: possible circular", out)

    def test_denylist_applies_to_earlier_results(self):
        # htab_update ran (and passed) before it was denied; one subtest of for_each is denied.
        d = self.parse("test_progs", PROGS_OUT, "htab_update\nfor_each/pcpu:*\n")
        r = self.results(d)
        self.assertEqual(r["htab_update"], "DENIED")
        self.assertNotIn("htab_update/reenter_update", r)
        self.assertEqual(r["for_each/pcpu: with spaces"], "DENIED")
        self.assertEqual(r["for_each/hash_map"], "OK")

    def test_test_that_failed_only_in_denied_subtests(self):
        # t ran before its subtest entries: its failure came from subtests the DENYLIST now names
        out = ("#1/1 t/a:OK\n#1/2 t/b @unpriv:FAIL\n#1/3 t/c, 6 @unpriv:FAIL\n#1 t:FAIL\n"
               "#2/1 u/a:FAIL\n#2/2 u/b:FAIL\n#2 u:FAIL\n")
        r = self.results(self.parse("test_progs", out, "t/b*@unpriv\nt/c*6*@unpriv\nu/a\n"))
        self.assertEqual(r["t/b @unpriv"], "DENIED")
        self.assertEqual(r["t/c, 6 @unpriv"], "DENIED")
        self.assertEqual(r["t"], "OK")
        # u also failed in a subtest the DENYLIST does not name: still FAIL
        self.assertEqual(r["u/a"], "DENIED")
        self.assertEqual(r["u"], "FAIL")

    def test_plan(self):
        with open(self.path("all"), "w") as f:
            f.write("bpf_iter\nbpf_nf\nfor_each\nhtab_update\n")
        with open(self.path("deny"), "w") as f:
            f.write("bpf_nf\nfor_each/pcpu*\n")  # a subtest entry does not stop its test
        rr.plan(self.path("all"), self.path("deny"), "bpf_iter/bpf_hash_map,htab*,for_each",
                self.path("todo"), self.path("denied"))
        with open(self.path("todo")) as f:
            # htab* selects htab_update alone: its invocation must not run every htab* test
            self.assertEqual(f.read(), "bpf_iter bpf_iter/bpf_hash_map\nfor_each for_each\n"
                                       "htab_update htab_update\n")
        with open(self.path("denied")) as f:
            self.assertEqual(f.read(), "bpf_nf\n")

    def test_globs_are_test_progs_globs(self):
        # test_progs' -a/-d globs know '*' alone: '?' and '[' are the characters themselves
        self.assertTrue(rr.glob("verifier_map_ptr/r = 0, r = r + map_ptr @unpriv",
                                "verifier_map_ptr/r*=*0,*map_ptr*@unpriv"))
        self.assertFalse(rr.glob("test_a1", "test_a?"))
        self.assertTrue(rr.glob("test_a?", "test_a?"))
        self.assertFalse(rr.glob("sub1", "sub[0-9]"))
        self.assertTrue(rr.glob("sub[0-9]", "sub[0-9]"))
        self.assertTrue(rr.denied_by("t/x [y]", ["t/x*[y]"]))
        self.assertFalse(rr.denied_by("t/x y", ["t/x*[y]"]))

    def test_test_verifier(self):
        d = self.parse("test_verifier", VERIFIER_OUT)
        r = self.results(d)
        self.assertEqual(r, {
            "0/u invalid and of negative number": "OK", "0/p invalid and of negative number": "OK",
            "1/p unreachable": "FAIL", "2/u with OK in it": "SKIP", "3/p runs": "OK",
            "4/p misaligned": "OK", "5/p retval": "FAIL", "test_verifier": "FAIL"})

    def write(self, kernel, suite, results):
        tests = [{"name": n, "result": r} for n, r in results.items()]
        with open(self.path(kernel, suite + ".json"), "w") as f:
            json.dump({"suite": suite, "wall": 1, "tests": tests}, f)

    def diff(self, allow=""):
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            rc = rr.diff(self.path("base"), self.path("series"), allow)
        return rc, buf.getvalue()

    def test_diff_same(self):
        self.write("base", "test_progs", {"a": "OK", "b": "SKIP", "c": "DENIED"})
        self.write("series", "test_progs", {"a": "OK", "b": "SKIP", "c": "DENIED"})
        rc, out = self.diff()
        self.assertEqual(rc, 0, out)
        self.assertIn("0 tests pass on the base and not on the series", out)

    def test_diff_names_each_regression(self):
        self.write("base", "test_progs", {"a": "OK", "a/x": "OK", "b": "SKIP", "c": "OK", "d": "OK"})
        self.write("series", "test_progs", {"a": "FAIL", "a/x": "FAIL", "b": "CRASH", "c": "OK"})
        rc, out = self.diff()
        self.assertEqual(rc, 1)
        for line in ("test_progs: a: base OK, series FAIL", "test_progs: a/x: base OK, series FAIL",
                     "test_progs: b: base SKIP, series CRASH", "test_progs: d: base OK, series MISSING"):
            self.assertIn("REGRESSION: " + line, out)
        self.assertNotIn(": c:", out)

    def test_diff_does_not_judge_what_the_series_denied(self):
        # A base recorded before the DENYLIST named a test (make regress -B): it ran it, OK; the
        # series, under the list, did not. Plant: judge a DENIED series result like any other.
        self.write("base", "test_progs", {"a": "OK", "a/x": "OK", "b": "OK"})
        self.write("series", "test_progs", {"a": "DENIED", "a/x": "DENIED", "b": "OK"})
        rc, out = self.diff()
        self.assertEqual(rc, 0, out)
        self.assertIn("0 tests pass on the base and not on the series", out)

    def test_diff_of_a_selection(self):
        # The base ran everything, the series only -a htab*,bpf_iter/bpf_hash_map.
        self.write("base", "test_progs", {"htab_update": "OK", "htab_update/reenter": "OK",
                                          "bpf_iter": "OK", "bpf_iter/bpf_hash_map": "OK",
                                          "bpf_iter/ipv6_route": "OK", "btf": "OK"})
        self.write("series", "test_progs", {"htab_update": "OK", "htab_update/reenter": "OK",
                                            "bpf_iter": "OK", "bpf_iter/bpf_hash_map": "FAIL"})
        self.write("base", "test_maps", {"test_maps": "OK"})
        self.write("series", "test_maps", {"test_maps": "OK"})
        rc, out = self.diff("htab*,bpf_iter/bpf_hash_map")
        self.assertEqual(rc, 1)
        self.assertIn("REGRESSION: test_progs: bpf_iter/bpf_hash_map: base OK, series FAIL", out)
        self.assertIn("1 tests pass on the base and not on the series", out)

    def test_diff_base_failure_must_be_denied(self):
        self.write("base", "test_maps", {"test_maps": "FAIL"})
        self.write("series", "test_maps", {"test_maps": "FAIL"})
        rc, out = self.diff()
        self.assertEqual(rc, 1)
        self.assertIn("base failure not in the DENYLIST: test_maps: test_maps: FAIL", out)


    def test_ran_reads_a_whole_suite_and_its_limit(self):
        """regress.sh -B: the recorded base's whole suite, its status, time and the limit it ran
        under (whole_limit, else 4 x limit; records before WHOLE_LIMIT have only limit)."""
        with tempfile.TemporaryDirectory() as d:
            suite, meta = os.path.join(d, "test_maps.json"), os.path.join(d, "meta.json")
            with open(suite, "w") as f:
                json.dump({"suite": "test_maps", "tests": [
                    {"name": "test_maps", "result": "TIMEOUT", "secs": 3601, "rc": 137},
                    {"name": "test_maps/x", "result": "OK"}]}, f)
            self.assertEqual(rr.ran(suite, "test_maps"), "137 3601")
            self.assertEqual(rr.ran(suite, "test_maps", os.path.join(d, "none.json")), "137 3601")
            with open(meta, "w") as f:
                json.dump({"params": {"limit": "900"}}, f)
            self.assertEqual(rr.ran(suite, "test_maps", meta), "137 3601 3600")
            with open(meta, "w") as f:
                json.dump({"params": {"limit": "900", "whole_limit": "7200"}}, f)
            self.assertEqual(rr.ran(suite, "test_maps", meta), "137 3601 7200")
            self.assertIsNone(rr.ran(suite, "test_verifier", meta))
            self.assertIsNone(rr.ran(suite, "test_maps/x", meta))

    def test_times_reads_whole_tests_ok_on_both(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)

        def suite(tests):
            path = os.path.join(tmp.name, f"s{len(os.listdir(tmp.name))}.json")
            with open(path, "w") as f:
                json.dump({"suite": "test_progs", "tests": [
                    dict(name=n, result=r, **({} if s is None else {"secs": s})) for n, r, s in tests]}, f)
            return path
        base = suite([("verifier_a", "OK", 10), ("verifier_b", "OK", 10), ("htab", "OK", 10),
                      ("lru", "OK", 10), ("short", "OK", 4), ("gone", "OK", 10),
                      ("verifier_a/sub", "OK", 10), ("failed", "OK", 10), ("retried", "OK", 10)])
        series = suite([("verifier_a", "OK", 10), ("verifier_b", "OK", 40), ("htab", "OK", 40),
                        ("lru", "OK", 40), ("short", "OK", 40), ("failed", "FAIL", 40),
                        ("verifier_a/sub", "OK", 90), ("retried", "OK", 90)])
        with open(series) as f:
            d = json.load(f)
        d["tests"][-1]["flaky"] = True
        with open(series, "w") as f:
            json.dump(d, f)
        got = rr.times(base, series, ["verifier"]).splitlines()
        # all: verifier_a 1, verifier_b 4, htab 4, lru 4 (short under 5 s in the base, gone not
        # in the series, failed not OK, retried flaky, a subtest not a whole test); the quartiles
        # of two lie between them
        self.assertEqual(got[2], "| all | 4 | 4.00 | 3.25-4.00 |")
        self.assertEqual(got[3], "| verifier* | 2 | 2.50 | 1.75-3.25 |")
        with self.assertRaises(cli.Error):
            rr.times(base, series, ["nothing"])

    def test_record_keeps_a_base_recorded_in_place(self):
        # make regress -B <recorded base> -R, when -R wrote in place: the base's directory is
        # the one the record writes; it must survive, and the series' raw output stay behind.
        with tempfile.TemporaryDirectory() as tmp:
            doc = os.path.join(tmp, "doc")
            base, series = os.path.join(doc, "base"), os.path.join(tmp, "cache", "series")
            for d, files in ((base, ("about", "test_maps.json")),
                             (series, ("about", "test_maps.json", "test_maps.out"))):
                os.makedirs(d)
                for f in files:
                    with open(os.path.join(d, f), "w") as out:
                        out.write(f + " of " + d)
            rr.record(doc, ["base=" + base, "series=" + series])
            self.assertEqual(sorted(os.listdir(base)), ["about", "test_maps.json"])
            with open(os.path.join(base, "about")) as f:
                self.assertEqual(f.read(), "about of " + base)
            self.assertEqual(sorted(os.listdir(os.path.join(doc, "series"))), ["about", "test_maps.json"])
            self.assertEqual(sorted(os.listdir(doc)), ["base", "series"])

    def test_record_refuses_a_label_that_is_a_path(self):
        with tempfile.TemporaryDirectory() as tmp:
            for label in ("", "..", "a/b"):
                with self.assertRaises(cli.Error):
                    rr.record(tmp, [label + "=" + tmp])
            self.assertTrue(os.path.isdir(tmp))


if __name__ == "__main__":
    unittest.main()
