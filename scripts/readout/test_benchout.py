"""Unit tests of benchout.py, the lab's reader of bench output: recorded runs of
scripts/readout/testdata/benchout/ (cut from the lab's results: testdata/benchout/README) and lines built from the printf
formats of bench.c and benchs/*.c of 6.1, 6.12 and 7.3."""
import contextlib
import io
import json
import os
import tempfile
import unittest

from readout import benchout
from readout import cli as readout_cli

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "testdata", "benchout")


def fixture(name):
    with open(os.path.join(DATA, name)) as f:
        return f.read()


def cli(*args, stdin=None):
    """(exit status, stdout, stderr) of readout.py benchout ARGS, as bash sees it (readout/cli.py's
    one line for an error)."""
    out, err = io.StringIO(), io.StringIO()
    old_stdin = benchout.sys.stdin
    if stdin is not None:
        benchout.sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = readout_cli.main(["benchout", *args])
    finally:
        benchout.sys.stdin = old_stdin
    return rc, out.getvalue(), err.getvalue()


# The final lines as bench.c and benchs/*.c print them (format strings copied from the sources)
HITS_DROPS = ("Summary: hits %8.3f \u00B1 %5.3fM/s (%7.3fM/prod), drops %8.3f \u00B1 %5.3fM/s, "
              "total operations %8.3f \u00B1 %5.3fM/s" % (9.329, 0.142, 4.664, 0, 0, 9.329, 0.142))
OPS = ("Summary: throughput %8.3f \u00B1 %5.3f M ops/s (%7.3fM ops/prod), latency %8.3f ns/op"
       % (12.5, 0.25, 12.5, 80.0))
LPM = ("Summary: throughput %8.3f \u00B1 %5.3f %c ops/s (%7.3f%c ops/prod), latency %8.3f %s/op"
       % (812.25, 3.5, "K", 406.125, "K", 1.231, "us"))
LOCAL_STORAGE = ("Summary: hits throughput %8.3f \u00B1 %5.3f M ops/s, hits latency %8.3f ns/op, "
                 "important_hits throughput %8.3f \u00B1 %5.3f M ops/s"
                 % (7.032, 0.156, 142.207, 0.44, 0.01))
HTAB_MEM_73 = ("Summary: per-prod-op %7.2f \u00B1 %7.2fk/s, memory usage %7.2f \u00B1 %7.2fMiB,"
               " peak memory usage %7.2fMiB" % (7.58, 0.31, 1.24, 0.0, 1.24))
HTAB_MEM_61 = ("Summary: per-prod-op %8.2f \u00B1 %7.2fk/s, memory growth %8.2f \u00B1 %7.2fMiB, "
               "peak growth %8.2fMiB" % (0.96, 0.01, 1.07, 0.0, 1.07))
CREATES = ("Summary: creates %8.3f \u00B1 %5.3fk/s (%7.3fk/prod), %d total"
           % (55.5, 1.25, 27.75, 166500))
FALSE_HITS = "Summary: %d false hits of %d total operations. Percentage =  %2.2f %%" % (27, 1000, 2.7)
SOCKMAP = "Summary: total trans %8.3u MB \u00B1 %5.3f MB/s" % (1234, 411.333)
# The full-update race mode's lines per role, from report_roles() of the 7.3 series' bench
ROLE_FMT = "%-9s inserts %8.3f \u00B1 %.3fM/s, -E2BIG %8.3f \u00B1 %.3fM/s, failed insert "
RACE = ("Setting up benchmark 'bpf-hashmap-full-update'...\n"
        + ROLE_FMT % ("churners", 1.25, 0.011, 0.002, 0.001) + "%8.1f \u00B1 %.1f ns\n" % (512.5, 20.25)
        + ROLE_FMT % ("inserters", 0.003, 0.001, 2.5, 0.05) + "%8.1f \u00B1 %.1f ns\n" % (301.0, 4.5)
        + "Outcomes (bpf-hashmap-full-update, race mode, 1000 entries, 15000000 updates): churners ok "
          "5000000, -E2BIG 8000, -ENOMEM 0, -EDEADLK 0, -ETIMEDOUT 0, other error 0; inserters ok 9000, "
          "-E2BIG 9983000, -ENOMEM 0, -EDEADLK 0, -ETIMEDOUT 0, other error 0\n"
        + "Summary: hits %8.3f \u00B1 %5.3fM/s (%7.3fM/prod), drops %8.3f \u00B1 %5.3fM/s, "
          "total operations %8.3f \u00B1 %5.3fM/s\n" % (1.253, 0.011, 0.626, 2.502, 0.05, 3.755, 0.05))
RCU_TT = ("SUMMARY tasks_trace grace period latency\tavg %.3f us\tstddev %.3f us\n"
          "SUMMARY ticks per tasks_trace grace period\tavg %.3f\tstddev %.3f"
          % (23456.5, 120.25, 3.5, 0.5))


def names(metrics):
    return [(m["name"], m["mean"], m["stddev"], m["unit"]) for m in metrics]


class SummaryFormats(unittest.TestCase):
    def test_hits_drops(self):
        got = benchout.parse_summary(HITS_DROPS)
        self.assertEqual(names(got), [("hits", 9.329, 0.142, "M/s"), ("drops", 0.0, 0.0, "M/s"),
                                      ("total operations", 9.329, 0.142, "M/s")])
        self.assertEqual((got[0]["per_prod"], got[0]["per_prod_unit"]), (4.664, "M/prod"))

    def test_ops(self):
        got = benchout.parse_summary(OPS)
        self.assertEqual(names(got), [("throughput", 12.5, 0.25, "M ops/s"),
                                      ("latency", 80.0, None, "ns/op")])
        self.assertEqual(got[0]["per_prod_unit"], "M ops/prod")

    def test_lpm_trie_rate_letter(self):
        self.assertEqual(names(benchout.parse_summary(LPM)),
                         [("throughput", 812.25, 3.5, "K ops/s"), ("latency", 1.231, None, "us/op")])

    def test_local_storage(self):
        self.assertEqual(names(benchout.parse_summary(LOCAL_STORAGE)),
                         [("hits throughput", 7.032, 0.156, "M ops/s"),
                          ("hits latency", 142.207, None, "ns/op"),
                          ("important_hits throughput", 0.44, 0.01, "M ops/s")])

    def test_htab_mem_both_flavours(self):
        self.assertEqual(names(benchout.parse_summary(HTAB_MEM_73)),
                         [("per-prod-op", 7.58, 0.31, "k/s"), ("memory usage", 1.24, 0.0, "MiB"),
                          ("peak memory usage", 1.24, None, "MiB")])
        self.assertEqual(names(benchout.parse_summary(HTAB_MEM_61)),
                         [("per-prod-op", 0.96, 0.01, "k/s"), ("memory growth", 1.07, 0.0, "MiB"),
                          ("peak growth", 1.07, None, "MiB")])

    def test_creates_and_count(self):
        self.assertEqual(names(benchout.parse_summary(CREATES)),
                         [("creates", 55.5, 1.25, "k/s"), ("total", 166500.0, None, "")])

    def test_false_hits(self):
        got = benchout.parse_summary(FALSE_HITS)
        self.assertEqual(got[0]["name"], "false hits percentage")
        self.assertEqual((got[0]["mean"], got[0]["unit"]), (2.7, "%"))
        self.assertEqual((got[1]["mean"], got[2]["mean"]), (27, 1000))

    def test_sockmap(self):
        got = benchout.parse_summary(SOCKMAP)
        self.assertEqual(names(got), [("trans rate", 411.333, None, "MB/s"),
                                      ("total trans", 1234.0, None, "MB")])

    def test_rcu_tasks_trace_two_lines_are_one_run(self):
        (run,) = benchout.parse(RCU_TT)
        self.assertEqual(names(run["summary"]),
                         [("tasks_trace grace period latency", 23456.5, 120.25, "us"),
                          ("ticks per tasks_trace grace period", 3.5, 0.5, "")])

    def test_garbage_is_named(self):
        with self.assertRaisesRegex(benchout.BenchOutputError, r"cannot read '\?\? 1 M/s'"):
            benchout.parse_summary("Summary: hits 1.000 ± 0.1M/s, ?? 1 M/s")
        with self.assertRaisesRegex(benchout.BenchOutputError, "not a Summary line"):
            benchout.parse_summary("Summary hits 1")


class RecordedRuns(unittest.TestCase):
    def test_full_update(self):
        (run,) = benchout.parse(fixture("full-update-full.txt"))
        self.assertEqual(run["benchmark"], "bpf-hashmap-full-update")
        self.assertEqual(benchout.main_metric(run)["mean"], 0.427)
        self.assertEqual(run["outcomes"]["context"], "full mode, 1000 entries, 1697061 updates")
        self.assertEqual(run["outcomes"]["counts"],
                         {"ok": 0, "-E2BIG": 1697061, "-ENOMEM": 0, "other error": 0})
        self.assertEqual([(c["cpu"], c["value"]) for c in run["per_cpu"]], [(0, 0.203), (1, 0.223)])
        self.assertEqual([(i["iter"], i["delta_us"]) for i in run["iterations"]][:2],
                         [(0, 6431.95), (1, -1279.34)])
        self.assertEqual(names(run["iterations"][3]["metrics"])[0], ("hits", 0.437, None, "M/s"))
        self.assertIsNone(benchout.memory(run))

    def test_htab_mem_growth(self):
        # 6.1's series before it printed upstream's figure: the map's growth only
        (run,) = benchout.parse(fixture("htab-mem-growth.txt"))
        self.assertIsNone(benchout.memory(run))
        self.assertEqual(benchout.map_growth(run),
                         {"mean": 1.07, "stddev": 0.0, "peak": 1.07, "kind": "memory growth"})
        counts = run["outcomes"]["counts"]
        self.assertEqual((counts["updates ok"], counts["deletes ok"], counts["out of turn"]),
                         (246848, 246848, 0))
        self.assertEqual(len(counts), 13)
        self.assertEqual([n[:6] for n in run["notes"]], ["Memory", "Expect"])
        self.assertEqual(names(run["iterations"][0]["metrics"]),
                         [("per-prod op", 0.98, None, "k/s"), ("memory growth", 1.07, None, "MiB")])

    def test_htab_mem_usage(self):
        (run,) = benchout.parse(fixture("htab-mem-usage.txt"))
        self.assertEqual(benchout.memory(run),
                         {"mean": 0.48, "stddev": 0.0, "peak": 0.5, "kind": "memory usage"})
        self.assertIsNone(benchout.map_growth(run))

    def test_htab_mem_usage_and_map_growth(self):
        # 6.1's series: upstream's figure, then the map's own growth under its own name
        (run,) = benchout.parse(fixture("htab-mem-both.txt"))
        self.assertEqual(benchout.memory(run),
                         {"mean": 1.31, "stddev": 0.0, "peak": 1.35, "kind": "memory usage"})
        self.assertEqual(benchout.map_growth(run),
                         {"mean": 0.63, "stddev": 0.0, "peak": 0.63, "kind": "map growth"})
        self.assertEqual(names(run["iterations"][0]["metrics"])[1:],
                         [("memory usage", 1.31, None, "MiB"), ("map growth", 0.63, None, "MiB")])

    def test_local_storage_iter_without_commas(self):
        (run,) = benchout.parse(fixture("local-storage.txt"))
        self.assertEqual(names(run["iterations"][0]["metrics"]),
                         [("hits", 0.558, None, "M/s"), ("important_hits", 0.035, None, "M/s")])
        self.assertEqual(benchout.main_metric(run)["unit"], "M ops/s")

    def test_log_of_runs(self):
        runs = benchout.parse(fixture("check-debug-runs.log"))
        self.assertEqual([(r["benchmark"], benchout.main_metric(r)["mean"]) for r in runs],
                         [("bpf-hashmap-full-update", 0.427), ("bpf-hashmap-full-update", 0.295),
                          ("htab-mem", 0.96)])

    def test_summary_ends_a_run(self):
        runs = benchout.parse(fixture("summaries-only.log"))
        self.assertEqual([benchout.main_metric(r)["mean"] for r in runs], [0.185, 0.123, 0.15, 0.15])
        self.assertEqual(runs[1]["outcomes"]["counts"]["-E2BIG"], 615912)

    def test_test_progs_summary_is_not_bench(self):
        runs = benchout.parse(fixture("local-storage.txt") + "Summary: 21/20 PASSED, 0 SKIPPED, 0 FAILED\n")
        self.assertEqual(len(runs), 1)

    def test_warning_kept(self):
        text = fixture("full-update-full.txt").replace(
            "Summary:", "WARNING: full mode expects every update to fail with -E2BIG, but 3 of 9 did not\nSummary:")
        (run,) = benchout.parse(text)
        self.assertEqual(len(run["warnings"]), 1)


class RaceMode(unittest.TestCase):
    def test_roles_read(self):
        (run,) = benchout.parse(RACE)
        self.assertEqual([(r["role"], r["inserts"], r["e2big_sd"], r["failed_ns"]) for r in run["roles"]],
                         [("churners", 1.25, 0.001, 512.5), ("inserters", 0.003, 0.05, 301.0)])
        self.assertEqual(run["outcomes"]["counts"]["churners ok"], 5000000)
        self.assertEqual(run["outcomes"]["counts"]["inserters -E2BIG"], 9983000)
        self.assertEqual(benchout.main_metric(run)["mean"], 1.253)

    def test_lab_lines_per_role(self):
        self.assertEqual(benchout.lab_lines(benchout.one_run(RACE), "full-update-race", "hashmap"),
                         ["lab-result: full-update-race hashmap 1.253 0.011 M/s",
                          "lab-result: full-update-race.churners.inserts hashmap 1.250 0.011 M/s",
                          "lab-result: full-update-race.churners.e2big hashmap 0.002 0.001 M/s",
                          "lab-result: full-update-race.churners.failed-insert hashmap 512.5 20.2 ns",
                          "lab-result: full-update-race.inserters.inserts hashmap 0.003 0.001 M/s",
                          "lab-result: full-update-race.inserters.e2big hashmap 2.500 0.050 M/s",
                          "lab-result: full-update-race.inserters.failed-insert hashmap 301.0 4.5 ns"])

    def test_no_failed_insert_no_line(self):
        # one online CPU: a churner's trigger runs to its end, nothing takes its element
        text = RACE.replace("%8.1f \u00B1 %.1f ns" % (512.5, 20.25), "       - ns")
        lines = benchout.lab_lines(benchout.one_run(text), "r", "f")
        self.assertEqual([line.split()[1] for line in lines],
                         ["r", "r.churners.inserts", "r.churners.e2big", "r.inserters.inserts",
                          "r.inserters.e2big", "r.inserters.failed-insert"])

    def test_trials_csv_has_the_roles(self):
        _, lab, _ = cli("lab", "full-update-race", "hashmap", stdin=RACE)
        runs = runs_file((lab, ["label.clock=wall", "label.variant=series", "label.trial=1",
                                "label.possible=8"]))
        rc, out, _ = cli("trials-csv", stdin=runs)
        self.assertEqual(rc, 0)
        self.assertIn("wall,series,1,8,hashmap,full-update-race.inserters.failed-insert,301.0,ns", out)
        self.assertEqual(len(out.splitlines()), 1 + 7)

    def test_unreadable_role_line_is_an_error(self):
        for bad in (RACE.replace("-E2BIG    2.500", "-E2BIG 2.500 drops"),
                    RACE.replace("M/s, failed insert    301.0", "M/s, failed    301.0")):
            with self.assertRaisesRegex(benchout.BenchOutputError, "cannot read the role line 'inserters"):
                benchout.parse(bad)


class LabLines(unittest.TestCase):
    def test_lab_result_and_memory(self):
        (run,) = benchout.parse(fixture("htab-mem-growth.txt"))
        self.assertEqual(benchout.lab_lines(run, "htab-mem-churn-prealloc", "htab-mem"),
                         ["lab-result: htab-mem-churn-prealloc htab-mem 0.96 0.01 k/s",
                          "lab-map-growth: htab-mem-churn-prealloc htab-mem 1.07 0.00 1.07 MiB"])
        (run,) = benchout.parse(fixture("htab-mem-both.txt"))
        self.assertEqual(benchout.lab_lines(run, "htab-mem-churn-prealloc", "htab-mem"),
                         ["lab-result: htab-mem-churn-prealloc htab-mem 1.00 0.03 k/s",
                          "lab-memory: htab-mem-churn-prealloc htab-mem 1.31 0.00 1.35 MiB",
                          "lab-map-growth: htab-mem-churn-prealloc htab-mem 0.63 0.00 0.63 MiB"])

    def test_lab_result_keeps_bench_digits(self):
        (run,) = benchout.parse(fixture("local-storage.txt"))
        self.assertEqual(benchout.lab_lines(run, "ls-seq-get-16", "local-storage"),
                         ["lab-result: ls-seq-get-16 local-storage 0.587 0.021 M ops/s"])

    def test_round_trip(self):
        text = "\n".join(benchout.lab_lines(benchout.one_run(fixture("htab-mem-usage.txt")), "h", "f"))
        (r,) = benchout.parse_lab("noise\n" + text + "\n")
        self.assertEqual((r["name"], r["family"], r["mean"], r["stddev"], r["unit"]),
                         ("h", "f", 2.49, 0.01, "k/s"))
        self.assertEqual(r["memory"], {"mean": 0.48, "stddev": 0.0, "peak": 0.5, "text": ["0.48", "0.00", "0.50"]})
        self.assertIsNone(r["map_growth"])
        text = "\n".join(benchout.lab_lines(benchout.one_run(fixture("htab-mem-both.txt")), "h", "f"))
        (r,) = benchout.parse_lab(text + "\n")
        self.assertEqual((r["memory"]["mean"], r["map_growth"]["mean"]), (1.31, 0.63))

    def test_malformed_lab_line(self):
        with self.assertRaisesRegex(benchout.BenchOutputError, "malformed lab line"):
            benchout.parse_lab("lab-result: x y 1.0\n")
        with self.assertRaisesRegex(benchout.BenchOutputError, "without its lab-result"):
            benchout.parse_lab("lab-memory: x y 1.0 0.1 2.0 MiB\n")
        with self.assertRaisesRegex(benchout.BenchOutputError, "lab-map-growth line without"):
            benchout.parse_lab("lab-map-growth: x y 1.0 0.1 2.0 MiB\n")


class Cli(unittest.TestCase):
    def test_rate(self):
        self.assertEqual(cli("rate", stdin=HITS_DROPS), (0, "9.329 0.142 M/s\n", ""))
        self.assertEqual(cli("rate", "-m", "important_hits throughput", stdin=LOCAL_STORAGE),
                         (0, "0.440 0.010 M ops/s\n", ""))
        self.assertEqual(cli("rate", os.path.join(DATA, "htab-mem-usage.txt")),
                         (0, "2.49 0.01 k/s\n", ""))

    def test_lab(self):
        rc, out, _ = cli("lab", "trig-rawtp", "trigger", stdin="Setting up benchmark 'trig-rawtp'...\n"
                         + HITS_DROPS + "\n")
        self.assertEqual((rc, out), (0, "lab-result: trig-rawtp trigger 9.329 0.142 M/s\n"))

    def test_json_one_line_per_run(self):
        rc, out, _ = cli("json", os.path.join(DATA, "check-debug-runs.log"))
        lines = out.splitlines()
        self.assertEqual((rc, len(lines)), (0, 3))
        self.assertEqual(json.loads(lines[2])["benchmark"], "htab-mem")

    def test_no_summary_is_one_line_and_status_1(self):
        # 6.1's own bpf-hashmap-full-update (before the series' rework) prints no Summary line
        rc, out, err = cli("rate", stdin="Setting up benchmark 'bpf-hashmap-full-update'...\n"
                           "0:hash_map_full_perf 347060 events per sec\n")
        self.assertEqual((rc, out), (1, ""))
        self.assertEqual(err, "readout.py benchout: error: no Summary line in bench's output "
                              "(last line: '0:hash_map_full_perf 347060 events per sec')\n")

    def test_two_runs_for_one_result(self):
        rc, _, err = cli("rate", os.path.join(DATA, "summaries-only.log"))
        self.assertEqual((rc, err), (1, "readout.py benchout: error: 4 runs of bench with a Summary line, expected one\n"))

    def test_missing_file_and_usage(self):
        rc, _, err = cli("rate", "/nonexistent/out")
        self.assertEqual((rc, err), (1, "readout.py benchout: error: /nonexistent/out: No such file or directory\n"))
        rc, _, err = cli("frobnicate")
        self.assertEqual(rc, 2)
        self.assertEqual(len(err.splitlines()), 1)
        with contextlib.redirect_stdout(io.StringIO()) as out:
            self.assertEqual(readout_cli.main(["benchout", "--help"]), 0)
        self.assertIn("scripts/readout.py benchout COMMAND", out.getvalue())


# A suite run's output (scripts/guest/suite.sh), and its summary rows as suite.sh printed them in
# the guest before the table moved to the host (its printf formats, run by bash on these lines)
SUITE_LOG = """>>> trig-base: ./bench -w1 -d3 trig-base
lab-result: trig-base trigger 9.329 0.142 M/s
lab-missing: trig-tp trigger skipped
lab-result: htab-mem-churn-bpf-ma htab-mem 5.58 0.13 k/s
lab-memory: htab-mem-churn-bpf-ma htab-mem 0.74 0.00 0.74 MiB
lab-map-growth: htab-mem-churn-bpf-ma htab-mem 0.63 0.01 0.70 MiB
lab-missing: full-update-full hashmap FAILED
lab-result: bloom-false bloom 2.70 - %
lab-missing: ls-seq-get-1 local-storage no summary line
lab-result: ls-seq-get-1000 local-storage 123.456 12.345 M ops/s
"""
SUITE_SUMMARY = [
    "",
    "Summary (vm, bench -w1 -d3):",
    "  trig-base                         9.329 \u00b1 0.142    M/s  ",
    "  trig-tp                      skipped",
    "  htab-mem-churn-bpf-ma              5.58 \u00b1 0.13     k/s     memory     0.74 \u00b1 0.00   MiB,"
    " peak 0.74 MiB; map growth 0.63 \u00b1 0.01 MiB, peak 0.70 MiB",
    "  full-update-full             FAILED",
    "  bloom-false                        2.70 \u00b1 -        %    ",
    "  ls-seq-get-1                 no summary line",
    "  ls-seq-get-1000                 123.456 \u00b1 12.345   M ops/s",
]
# make scaling's runs, and its table as the awk program of scaling.sh printed it
SCALING_LOG = """scaling: trig-base A p1 9.329 0.142
scaling: trig-base A p2 17.101 0.300
scaling: trig-base B p2 18.250 0.200
scaling: trig-base B p1 9.500 0.100
scaling: trig-rawtp A p1 fail libbpf: failed to attach
scaling: trig-rawtp A p2 3.000 0.010
scaling: trig-rawtp B p1 2.000 0.010
scaling: trig-rawtp B p2 3.900 0.010
scaling: trig-base B p1 9.100 0.100
scaling: trig-base B p2 18.700 0.200
scaling: trig-base A p1 9.200 0.142
scaling: trig-base A p2 16.900 0.300
scaling: trig-zero A p1 0.000 0.000
scaling: trig-zero A p2 1.000 0.000
"""
SCALING_TABLE = """benchmark                      p1         p2   p2/p1       per round
trig-base          A        9.264     17.000    1.84    1.83..1.84  
trig-base          B        9.300     18.475    1.99    1.92..2.05  
trig-rawtp         A        fails (1 of 2 runs)
trig-rawtp         B        2.000      3.900    1.95    1.95..1.95  
trig-zero          A        fails (0 of 2 runs)
"""


def runs_file(*runs):
    """A runs file of scripts/measure.sh: one line a (LOG, FIELDS) pair, as `benchout.py run` makes it."""
    return "".join(json.dumps(benchout.run_record(log, fields)) + "\n" for log, fields in runs)


class Runs(unittest.TestCase):
    """The runs file of scripts/measure.sh, and the tables printed from it."""

    def test_run_line(self):
        rc, out, _ = cli("run", "-", "runner=suite", "status=1", "label.trial=3", "label.variant=base",
                         "kernel=series=0123456789ab", stdin=SUITE_LOG)
        run = json.loads(out)
        self.assertEqual((rc, len(out.splitlines())), (0, 1))
        self.assertEqual((run["runner"], run["status"], run["labels"], run["kernel"]),
                         ("suite", 1, {"trial": 3, "variant": "base"}, "series=0123456789ab"))
        self.assertEqual([(r["name"], r.get("missing")) for r in run["results"]][:3],
                         [("trig-base", None), ("trig-tp", "skipped"), ("htab-mem-churn-bpf-ma", None)])
        self.assertEqual(run["results"][2]["map_growth"]["text"], ["0.63", "0.01", "0.70"])

    def test_bad_field_and_bad_runs(self):
        self.assertEqual(cli("run", "-", "nokey", stdin="")[2], "readout.py benchout: error: run: expected KEY=VALUE, got 'nokey'\n")
        self.assertEqual(cli("summary", stdin="not json\n")[:1], (1,))
        rc, _, err = cli("summary", stdin='{"runner": "suite"}\n')
        self.assertEqual((rc, err), (1, "readout.py benchout: error: line 1: not a run of scripts/measure.sh (no results)\n"))
        with self.assertRaisesRegex(benchout.BenchOutputError, "malformed lab line"):
            benchout.run_record("lab-missing: x\n", [])
        # a reader of lab-result lines only passes the lab-missing ones by
        self.assertEqual([r["name"] for r in benchout.parse_lab(SUITE_LOG)],
                         ["trig-base", "htab-mem-churn-bpf-ma", "bloom-false", "ls-seq-get-1000"])

    def test_summary_rows_are_those_of_the_suite(self):
        runs = runs_file((SUITE_LOG, ["runner=suite", "where=vm", "label.warmup=1", "label.duration=3"]),
                         ("scaling: trig-base A p1 1.0 0.1\n", ["runner=scaling"]))
        self.assertEqual(cli("summary", stdin=runs), (0, "\n".join(SUITE_SUMMARY) + "\n", ""))

    def test_trials_csv(self):
        runs = runs_file(
            ("lab-result: ls-seq-get-1 local-storage 5.433 0.010 M ops/s\n"
             "lab-result: htab-mem-churn-bpf-ma htab-mem 5.58 0.13 k/s\n"
             "lab-memory: htab-mem-churn-bpf-ma htab-mem 0.74 0.00 0.74 MiB\n"
             "lab-missing: trig-base trigger FAILED\n",
             ["label.clock=icount", "label.variant=base", "label.trial=1", "label.possible=2"]),
            ("lab-result: ls-seq-get-1 local-storage 5.000 0.010 M ops/s\n",
             ["label.clock=wall", "label.variant=series", "label.trial=1", "label.possible=64"]))
        self.assertEqual(cli("trials-csv", stdin=runs),
                         (0, "clock,variant,trial,possible_cpus,family,benchmark,value,unit\n"
                             "icount,base,1,2,local-storage,ls-seq-get-1,5.433,M ops/s\n"
                             "icount,base,1,2,htab-mem,htab-mem-churn-bpf-ma,5.58,k/s\n"
                             "wall,series,1,64,local-storage,ls-seq-get-1,5.000,M ops/s\n", ""))
        rc, _, err = cli("trials-csv", stdin=runs_file(("", ["label.clock=icount"])))
        self.assertEqual((rc, err), (1, "readout.py benchout: error: a run without the label variant (trials-csv)\n"))

    def test_scaling_table_is_that_of_the_awk_program(self):
        lines = SCALING_LOG.splitlines(keepends=True)  # two runs: the table is over the whole file
        runs = runs_file(("".join(lines[:9]), ["runner=scaling"]), ("".join(lines[9:]), ["runner=scaling"]))
        self.assertEqual(cli("scaling", stdin=runs), (0, SCALING_TABLE, ""))
        with self.assertRaisesRegex(benchout.BenchOutputError, "malformed scaling line"):
            benchout.parse_scaling("scaling: trig-base C p1 1.0 0.1\n")

    def test_run_appended_gives_its_status(self):
        with tempfile.TemporaryDirectory() as d:
            runs = os.path.join(d, "runs.jsonl")
            one = "lab-result: ls-seq-get-1 local-storage 5.433 0.010 M ops/s\n"
            for status in ("0", "3"):
                self.assertEqual(cli("run", "-a", runs, "-", "runner=suite", f"status={status}", stdin=one),
                                 (0, f"{status}\n", ""))
            # a benchmark without a result fails a run that exited 0
            self.assertEqual(cli("run", "-a", runs, "-", "status=0", stdin="lab-raw: bench x y\nlab-raw-end: rc=0\n"),
                             (0, "1\n", ""))
            with open(runs) as f:
                lines = f.read().splitlines()
            self.assertEqual([json.loads(line)["status"] for line in lines], [0, 3, 1])
            self.assertEqual(lines[0], cli("run", "-", "runner=suite", "status=0", stdin=one)[1].rstrip("\n"))
            self.assertEqual(cli("run", "-a", runs, "-", "runner=suite", stdin="")[2],
                             "readout.py benchout: error: no field 'status' in the last run\n")
            self.assertEqual(cli("run", "-a", os.path.join(d, "no", "runs"), "-", "status=0", stdin="")[:2], (1, ""))

    def test_report_is_summary_commit_and_clock_in_one_reading(self):
        runs = runs_file((SUITE_LOG, ["runner=suite", "where=vm", "label.warmup=1", "label.duration=3",
                                      "clock=wall-kvm", "bench=HEAD=0123456789ab"]))
        with tempfile.TemporaryDirectory() as d:
            path, table = os.path.join(d, "runs.jsonl"), os.path.join(d, "table.txt")
            with open(path, "w") as f:
                f.write(runs)
            self.assertEqual(cli("report", path, table), (0, "0123456789ab\nwall-kvm\n", ""))
            with open(table) as f:
                self.assertEqual(f.read(), cli("summary", stdin=runs)[1])
            with open(path, "w") as f:
                f.write(runs_file((SUITE_LOG, ["runner=suite", "clock=icount"])))
            self.assertEqual(cli("report", path, table)[2], "readout.py benchout: error: no field 'bench' in the last run\n")
        self.assertEqual(cli("report", "x")[2], "readout.py benchout: error: report takes RUNS TABLE (readout.py benchout -h)\n")

    def test_clock_and_field(self):
        runs = runs_file(("", ["clock=icount", "bench=HEAD=0123456789ab"]), ("", ["clock=wall-tcg"]),
                         ("", ["clock=icount", "bench=base=ba5eba5eba5e"]))
        self.assertEqual(cli("clock", stdin=runs), (0, "icount,wall-tcg\n", ""))
        self.assertEqual(cli("field", "bench", stdin=runs), (0, "base=ba5eba5eba5e\n", ""))
        self.assertEqual(cli("field", "nosuch", stdin=runs)[2], "readout.py benchout: error: no field 'nosuch' in the last run\n")



def raw(kind, words, output, rc=0):
    """A run as a runner of scripts/guest/ prints it: its output between the two markers."""
    return f"lab-raw: {kind} {words}\n{output.rstrip(chr(10))}\nlab-raw-end: rc={rc}\n"


class RawRuns(unittest.TestCase):
    """The guest prints bench's output as it came; the host reads it once, into the same fields as
    the lab-result lines the guest printed before (which older logs hold)."""

    OUTPUTS = [("full-update-race", "hashmap", RACE),
               ("htab-mem-churn-prealloc", "htab-mem", fixture("htab-mem-both.txt")),
               ("htab-mem-growth", "htab-mem", fixture("htab-mem-growth.txt")),
               ("htab-mem-usage", "htab-mem", fixture("htab-mem-usage.txt")),
               ("ls-seq-get-16", "local-storage", fixture("local-storage.txt")),
               ("full-update-full", "hashmap", fixture("full-update-full.txt")),
               ("trig-base", "trigger", "Setting up benchmark 'trig-base'...\n" + HITS_DROPS + "\n"),
               ("lpm-lookup", "lpm", LPM + "\n"), ("creates", "local-storage", CREATES + "\n"),
               ("bloom-false", "bloom", FALSE_HITS + "\n"), ("sockmap", "sockmap", SOCKMAP + "\n"),
               ("rcu-tasks-trace", "rcu", RCU_TT + "\n")]

    def test_the_same_results_as_the_guests_lines(self):
        raw_log = "".join(raw("bench", f"{n} {f}", out) for n, f, out in self.OUTPUTS)
        lines_log = "".join(line + "\n" for n, f, out in self.OUTPUTS
                            for line in benchout.lab_lines(benchout.one_run(out), n, f))
        got = benchout.run_record(raw_log, ["runner=suite"])
        self.assertEqual(json.dumps(got), json.dumps(benchout.run_record(lines_log, ["runner=suite"])))
        self.assertEqual(len(got["results"]), len(self.OUTPUTS) + 6)    # + the race mode's role metrics

    def test_failed_missing_and_cut_short(self):
        log = ("lab-missing: trig-tp trigger skipped\n"
               + raw("bench", "trig-base trigger", "libbpf: failed to load\n", rc=1)
               + raw("bench", "trig-kprobe trigger", "Setting up benchmark 'trig-kprobe'...\n")
               + "lab-raw: bench trig-fentry trigger\nIter 1 (100us): hits 1.0M/slab-raw-end: rc=137\n"
               + "lab-raw: bench trig-rawtp trigger\nSetting up benchmark 'trig-rawtp'...\n")
        self.assertEqual(benchout.run_record(log, [])["results"],
                         [{"name": "trig-tp", "family": "trigger", "missing": "skipped"},
                          {"name": "trig-base", "family": "trigger", "missing": "FAILED"},
                          {"name": "trig-kprobe", "family": "trigger", "missing": "no summary line"},
                          {"name": "trig-fentry", "family": "trigger", "missing": "FAILED"}])
        self.assertEqual(benchout.parse_lab(log), [])
        # a run without a result fails the runner's run, as when the guest read it
        self.assertEqual([benchout.run_record(log, ["status=0"])["status"],
                          benchout.run_record(raw("bench", "a b", HITS_DROPS), ["status=0"])["status"]], [1, 0])

    def test_scaling_and_htab_mem(self):
        log = (raw("scaling", "trig-base A p1", "Setting up benchmark 'trig-base'...\n" + HITS_DROPS)
               + raw("scaling", "trig-rawtp B p2", "libbpf: prog 'x': failed to attach: -95\n", rc=1)
               + raw("scaling", "trig-ops A p2", OPS)
               + raw("htab-mem", "barrier overwrite bpf-ma", fixture("htab-mem-usage.txt")))
        run = benchout.run_record(log, ["runner=scaling"])
        self.assertEqual(run["scaling"], benchout.parse_scaling(
            "scaling: trig-base A p1 9.329 0.142\n"
            "scaling: trig-rawtp B p2 fail libbpf: prog 'x': failed to attach: -95\n"
            "scaling: trig-ops A p2 fail benchout: no 'hits' on the Summary line: '%s'\n" % OPS))
        self.assertEqual(run["htab_mem"], [benchout.htab_mem_line("barrier", "overwrite", "bpf-ma",
                                                                  fixture("htab-mem-usage.txt"))])
        self.assertRegex(run["htab_mem"][0], r"^htab-mem: overwrite bpf-ma barrier [0-9.]+ ")
        with self.assertRaisesRegex(benchout.BenchOutputError, "malformed lab-raw: scaling line"):
            benchout.run_record(raw("scaling", "trig-base p1", HITS_DROPS), [])

if __name__ == "__main__":
    unittest.main()
