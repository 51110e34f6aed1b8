#!/usr/bin/python3
"""Unit tests of matrix.py (make matrix): the extractors, staleness by patch-id, the table and the
README check, on temporary git repositories."""
import contextlib
import io
import os
import subprocess
import tempfile
import unittest

import matrix

ENV = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t",
           GIT_COMMITTER_EMAIL="t@t", GIT_CONFIG_GLOBAL="/dev/null", GIT_CONFIG_NOSYSTEM="1")


def git(root, *args):
    return subprocess.run(["git", "-C", root, *args], check=True, capture_output=True, text=True,
                          env=ENV).stdout.strip()


def write(root, path, text):
    full = os.path.join(root, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w") as f:
        f.write(text)


class Kernel:
    """A scratch kernel tree whose commits become a series (git format-patch)."""

    def __init__(self, root):
        self.root = root
        git(root, "init", "-q")
        write(root, "kernel/bpf/freelist.c", "int pop(void)\n{\n\treturn 0;\n}\n")
        write(root, "tools/bench.c", "int main(void)\n{\n\treturn 0;\n}\n")
        git(root, "add", "-A")
        git(root, "commit", "-q", "-m", "base")
        git(root, "tag", "base")

    def commit(self, path, old, new, message):
        full = os.path.join(self.root, path)
        with open(full) as f:
            text = f.read()
        write(self.root, path, text.replace(old, new))
        git(self.root, "commit", "-q", "-am", message)

    def series(self, lab, directory):
        """The series in lab/directory, as make series writes it (cover letter and all)."""
        full = os.path.join(lab, directory)
        if os.path.isdir(full):
            for f in os.listdir(full):
                os.remove(os.path.join(full, f))
        git(self.root, "format-patch", "-q", "--zero-commit", "--cover-letter", "-o", full, "base..HEAD")


CONFIG = """\
series-before 6.1 patches
row gate *,+messages the series applies
\t*\tresults/evidence/{base}/gate.log evidence tests/series/applies.sh || timings.md ci_run series/applies
row speed kernel/ the speed-up
\t6.1\tresults/icount/trials.csv mean_ratio icount full 64
row bench tools/ the bench output
\t6.1\tresults/bench.log native_ratio exhausted:64
"""

TRIALS = """\
clock,variant,trial,possible_cpus,family,benchmark,value,unit
icount,base,1,64,hashmap,full,0.350,M/s
icount,series,1,64,hashmap,full,2.900,M/s
icount,base,2,64,hashmap,full,0.352,M/s
icount,series,2,64,hashmap,full,2.960,M/s
icount,base,1,2,hashmap,full,2.7,M/s
wall,series,1,64,hashmap,full,9.9,M/s
"""

MT = """\
ns per op, median of 10 interleaved repetitions of 200 ms [min-max]; x = median / median of base
case (workload:possible:nodes)                          base            freelist-no-skip                      series
own-full:64                                    6.7 [6.7-7.0]         6.7 [6.6-7.0] x1.00         6.1 [6.1-6.2] x0.91
exhausted:64                             256.1 [255.9-256.9]4441.0 [2583.7-7668.7] x17.34         5.5 [5.5-5.6] x0.02
exhausted:256                         1063.3 [1059.1-1071.3]21741.6 [13531.8-30095.2] x20.451063.5 [1059.2-1094.7] x1.00
"""


class Lab:
    """A scratch lab: config/<base>/base.conf, config/matrix, a README with the markers, results."""

    def __init__(self, root, bases=("6.1", "6.12")):
        self.root = root
        git(root, "init", "-q")
        for b in bases:
            write(root, "config/%s/base.conf" % b, "BASE_PACKAGE=linux-source-%s\n" % b)
        write(root, "config/matrix", CONFIG)
        write(root, "README.md", "# lab\n\nintro\n\n%s\n%s\ntail\n" % (matrix.START, matrix.END))
        self.commit("lab")

    def commit(self, message):
        git(self.root, "add", "-A")
        git(self.root, "commit", "-q", "-m", message)
        return git(self.root, "rev-parse", "HEAD")

    def matrix(self):
        return matrix.Matrix(self.root)

    def run(self, *args):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = matrix.main(["--root", self.root, *args])
        return rc, out.getvalue(), err.getvalue()


class Fixture(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        os.makedirs(os.path.join(self.tmp.name, "kernel"))
        os.makedirs(os.path.join(self.tmp.name, "lab"))
        self.kernel = Kernel(os.path.join(self.tmp.name, "kernel"))
        self.lab = Lab(os.path.join(self.tmp.name, "lab"))
        self.kernel.commit("kernel/bpf/freelist.c", "return 0;", "return 1;", "bpf: pop faster")
        self.kernel.commit("tools/bench.c", "return 0;", "return 2;", "selftests/bpf: bench it")
        self.kernel.series(self.lab.root, "patches/6.1")

    def row(self, ident):
        m = self.lab.matrix()
        return m, next(r for r in m.rows if r.id == ident)


class ExtractorTest(Fixture):
    def ctx(self, base="6.1"):
        return matrix.Context(matrix.Repo(self.lab.root), base)

    def test_mean_ratio(self):
        write(self.lab.root, "t.csv", TRIALS)
        v = matrix.ex_mean_ratio(self.ctx(), "t.csv", "icount full 64")
        self.assertEqual(v.text, "×8.35")    # 2.930 / 0.351 = 8.347
        with self.assertRaisesRegex(matrix.Error, "no icount trials of full at 255"):
            matrix.ex_mean_ratio(self.ctx(), "t.csv", "icount full 255")
        with self.assertRaises(matrix.Missing):
            matrix.ex_mean_ratio(self.ctx(), "absent.csv", "icount full 64")

    def test_native_ratio_reads_glued_columns(self):
        write(self.lab.root, "mt.log", MT)
        self.assertEqual(matrix.ex_native_ratio(self.ctx(), "mt.log", "exhausted:64").text, "×0.021")
        self.assertEqual(matrix.ex_native_ratio(self.ctx(), "mt.log", "exhausted:256").text, "×1.00")
        with self.assertRaisesRegex(matrix.Error, "no run.sh mt table with a row storm:0:64"):
            matrix.ex_native_ratio(self.ctx(), "mt.log", "storm:0:64")

    def test_native_ratio_after_an_anchor(self):
        other = MT.replace("5.5 [5.5-5.6]", "9.9 [9.9-9.9]")
        write(self.lab.root, "r.md", "# v3\n\n" + MT + "\n## The patch as posted\n\n" + other)
        self.assertEqual(matrix.ex_native_ratio(self.ctx(), "r.md", "exhausted:64").text, "×0.021")
        self.assertEqual(matrix.ex_native_ratio(self.ctx(), "r.md", "exhausted:64 ## The patch as posted").text,
                         "×0.039")
        with self.assertRaisesRegex(matrix.Error, "no line with 'nowhere'"):
            matrix.ex_native_ratio(self.ctx(), "r.md", "exhausted:64 nowhere")

    HTAB = """\
# htab-mem

## Measured

| use case | BPF allocator | preallocated | unexpected outcomes |
|---|---|---|---|
| overwrite | 9.53 ± 2.28, 0.39 / 0.39 | 17.89 ± 0.65, 0.63 / 0.63 | 0, 0 |
| batch_add_batch_del | 6.62 ± 2.32, 22.60 ± 10.64 / 42.64 | 18.09 ± 4.65, 0.63 / 0.63 | 0, 0 |
| add_del_on_diff_cpu | **0.59** ± 0.38, 0.76 ± 0.63 / 2.14 | **1.77** ± 1.39, 0.63 / 0.63 | 0, 0 |

Expected preallocated size: 0.63 MiB (8194 elements of 64 bytes)

## Against the original posting

| overwrite | 126.59, 2.26 / 2.74 | 191.42, 1.24 / 1.49 | 11.24, 82.64 / 119.18 |
"""

    def test_htab_mem(self):
        write(self.lab.root, "h.md", self.HTAB)
        self.assertEqual(matrix.ex_htab_mem(self.ctx(), "h.md", "").text,
                         "✓ (1 rounds, preallocated 0.63 MiB as expected)")
        write(self.lab.root, "h.md", self.HTAB.replace("**1.77** ± 1.39, 0.63", "**1.77** ± 1.39, 0.74")
              .replace("| 6.62 ±", "| 0.10 ±"))
        self.assertEqual(matrix.ex_htab_mem(self.ctx(), "h.md", "").text,
                         "✗ (round 1: add_del_on_diff_cpu not the slowest; "
                         "round 1: add_del_on_diff_cpu preallocated memory 0.74 MiB)")
        write(self.lab.root, "h.md", "# htab-mem\n")
        with self.assertRaisesRegex(matrix.Error, "no measured htab-mem table"):
            matrix.ex_htab_mem(self.ctx(), "h.md", "")

    VS = ("6.1 series (...)\n"
          "use case             flavour       barrier k/s    MiB   x upstream     turn k/s    MiB   x upstream"
          "   upstream k/s    MiB\n"
          "overwrite            bpf-ma           10.00   1.30       x0.95~       12.00   1.30        x1.14"
          "          10.50   1.20\n"
          "add_del_on_diff_cpu  prealloc          2.05   1.30        x1.95        2.50   1.30       x2.38~"
          "           1.05   1.20\n")

    def test_htab_mem_vs_upstream(self):
        write(self.lab.root, "t.txt", self.VS)
        self.assertEqual(matrix.ex_htab_mem_vs_upstream(self.ctx(), "t.txt", "").text,
                         "✗ 1 of 2 not significantly different from upstream's (barrier: x0.95 x1.95)")
        self.assertEqual(matrix.ex_htab_mem_vs_upstream(self.ctx(), "t.txt", "turn").text,
                         "✗ 1 of 2 not significantly different from upstream's (turn: x1.14 x2.38)")
        write(self.lab.root, "t.txt", self.VS.replace("x1.95 ", "x1.95~"))
        self.assertEqual(matrix.ex_htab_mem_vs_upstream(self.ctx(), "t.txt", "barrier").text,
                         "✓ 2 of 2 not significantly different from upstream's (barrier: x0.95 x1.95)")
        with self.assertRaisesRegex(matrix.Error, "no column 'spin'"):
            matrix.ex_htab_mem_vs_upstream(self.ctx(), "t.txt", "spin")
        write(self.lab.root, "t.txt", "nothing\n")
        with self.assertRaisesRegex(matrix.Error, "no table of scripts/compare/htab-mem.sh"):
            matrix.ex_htab_mem_vs_upstream(self.ctx(), "t.txt", "")

    def test_regress(self):
        summary = "Command: `BASE=6.1 scripts/regress.sh -R`\n\n```\n%s tests pass on the base and not on " \
                  "the series (test_maps, test_progs, test_verifier)\n```\n"
        write(self.lab.root, "s.md", summary % 0)
        self.assertEqual(matrix.ex_regress(self.ctx(), "s.md", "test_progs,test_verifier whole").text, "✓ (0 new)")
        write(self.lab.root, "s.md", summary % 2)
        self.assertEqual(matrix.ex_regress(self.ctx(), "s.md", "test_progs").text, "✗ (2 new)")
        with self.assertRaisesRegex(matrix.Error, "its run has no test_progs-no_alu32"):
            matrix.ex_regress(self.ctx(), "s.md", "test_progs,test_progs-no_alu32")
        write(self.lab.root, "s.md", (summary % 0).replace("-R`", "-a htab_update test_progs`"))
        with self.assertRaisesRegex(matrix.Error, "a run of selected tests"):
            matrix.ex_regress(self.ctx(), "s.md", "test_progs whole")
        self.assertEqual(matrix.ex_regress(self.ctx(), "s.md", "test_progs").text, "✓ (0 new)")

    def test_evidence(self):
        head = self.lab.commit("more")
        record = "# record-evidence: gate\n# command: BASE=6.1 x\n# date: d\n# lab commit: %s\nok\n" % head
        write(self.lab.root, "e.log", record + "# exit status: 0\n")
        v = matrix.ex_evidence(self.ctx(), "e.log", "")
        self.assertEqual((v.text, v.commit), ("✓", head))
        write(self.lab.root, "e.log", record + "# exit status: 1\n")
        self.assertEqual(matrix.ex_evidence(self.ctx(), "e.log", "").text, "✗ (exit 1)")
        write(self.lab.root, "e.log", record)
        with self.assertRaisesRegex(matrix.Error, "its recording did not finish"):
            matrix.ex_evidence(self.ctx(), "e.log", "")
        write(self.lab.root, "e.log", record.replace(head, "0" * 40) + "# exit status: 0\n")
        with self.assertRaisesRegex(matrix.Error, "0{40}: not a commit of this repository"):
            matrix.ex_evidence(self.ctx(), "e.log", "")

    def test_ci_run_takes_the_newest_run_of_the_test_not_slow(self):
        write(self.lab.root, "config/6.1/tests", "series/tree\nseries/applies\nseries/gates\n")
        first = self.lab.commit("gates in make check")
        write(self.lab.root, "config/6.1/tests", "series/tree\nseries/applies\nslow series/gates  # LTS\n")
        second = self.lab.commit("gates slow")
        write(self.lab.root, "timings.md", "| step | time |\n|---|---|\n"
              "| `bash .ci/run`, commit %s | 10 passed, 0 failed |\n"
              "| the same, warm, at commit %s | 9 passed, 0 failed |\n"
              "| `bash .ci/run`, commit %s | 3 passed, 1 failed |\n" % (first[:7], second[:7], second[:7]))
        self.assertEqual(matrix.ex_ci_run(self.ctx(), "timings.md", "series/applies").commit, second)
        self.assertEqual(matrix.ex_ci_run(self.ctx(), "timings.md", "series/gates").commit, first)
        self.assertEqual(matrix.ex_ci_run(self.ctx(), "timings.md", "series/x|series/gates series/tree").commit,
                         first)
        with self.assertRaises(matrix.Missing):
            matrix.ex_ci_run(self.ctx(), "timings.md", "series/mbox")
        with self.assertRaises(matrix.Missing):    # 6.12 has no list at those commits
            matrix.ex_ci_run(self.ctx("6.12"), "timings.md", "series/applies")

    def test_splats_as_check_debug_counts_them(self):
        write(self.lab.root, "config/6.1/known-splats", "BUG: KCSAN: data-race in a / b\t# the base's\n")
        log = ("[    1.0] BUG: KCSAN: data-race in a / b\n--- dmesg splats ---\n"
               "5:[    1.0] BUG: KCSAN: data-race in a / b\n--- end ---\n")
        write(self.lab.root, "d.log", log)
        self.assertEqual(matrix.ex_splats(self.ctx(), "d.log", "").text, "✓ (0 unknown, 1 known)")
        write(self.lab.root, "d.log", log + "[    2.0] WARNING: possible circular locking dependency detected\n")
        self.assertEqual(matrix.ex_splats(self.ctx(), "d.log", "").text, "✗ (1 unknown of 2)")


class StalenessTest(Fixture):
    def measure(self):
        write(self.lab.root, "results/icount/trials.csv", TRIALS)
        write(self.lab.root, "results/bench.log", MT)
        return self.lab.commit("results")

    def cells(self):
        m = self.lab.matrix()
        return {r.id: m.cell(r, "6.1") for r in m.rows}

    def test_not_measured_gives_its_reason(self):
        m, row = self.row("speed")
        row.sources["6.1"] = [("results/why.md", "not_measured", "no boot at 255")]
        with self.assertRaisesRegex(matrix.Error, "results/why.md, the file that gives the reason, does not exist"):
            m.cell(row, "6.1")
        write(self.lab.root, "results/why.md", "the guest does not boot\n")
        self.lab.commit("why")
        self.assertEqual(m.cell(row, "6.1"), "not measured: no boot at 255, [results/why.md](results/why.md)")

    def test_fresh(self):
        at = self.measure()
        cells = self.cells()
        self.assertEqual(cells["speed"], "×8.35, %s, [results/icount/trials.csv](results/icount/trials.csv)" % at[:12])
        self.assertTrue(cells["bench"].startswith("×0.021, %s, " % at[:12]))
        self.assertEqual(cells["gate"], matrix.NOT_MEASURED)

    def test_reworded_patch_is_stale_only_for_rows_on_messages(self):
        at = self.measure()
        write(self.lab.root, "results/evidence/6.1/gate.log", "# lab commit: %s\n# exit status: 0\n" % at)
        self.lab.commit("the record")
        self.assertTrue(self.cells()["gate"].startswith("✓, %s" % at[:12]))
        git(self.kernel.root, "rebase", "-q", "-x", "git commit -q --amend -m reworded", "base")
        self.kernel.series(self.lab.root, "patches/6.1")
        self.lab.commit("series reworded")
        self.assertTrue(self.cells()["speed"].startswith("×8.35, %s" % at[:12]))
        self.assertTrue(self.cells()["gate"].startswith("stale, %s" % at[:12]))

    def test_changed_code_is_stale_for_the_rows_on_its_paths(self):
        at = self.measure()
        self.kernel.commit("tools/bench.c", "return 2;", "return 3;", "selftests/bpf: bench it again")
        self.kernel.series(self.lab.root, "patches/6.1")
        self.lab.commit("a tools patch")
        cells = self.cells()
        self.assertTrue(cells["speed"].startswith("×8.35, "), cells["speed"])    # kernel/ only
        self.assertEqual(cells["bench"], "stale, %s, [results/bench.log](results/bench.log)" % at[:12])

    def test_split_patch_is_stale(self):
        self.measure()
        git(self.kernel.root, "reset", "-q", "--hard", "base")
        self.kernel.commit("kernel/bpf/freelist.c", "\treturn 0;", "\treturn 0 +", "bpf: pop, part 1")
        self.kernel.commit("kernel/bpf/freelist.c", "\treturn 0 +", "\treturn 1;", "bpf: pop, part 2")
        self.kernel.commit("tools/bench.c", "return 0;", "return 2;", "selftests/bpf: bench it")
        self.kernel.series(self.lab.root, "patches/6.1")
        self.lab.commit("freelist patch split")
        self.assertTrue(self.cells()["speed"].startswith("stale, "))

    def test_uncommitted_patch_change_is_stale(self):
        self.measure()
        path = os.path.join(self.lab.root, "patches/6.1")
        patch = next(f for f in sorted(os.listdir(path)) if f.startswith("0001-"))
        with open(os.path.join(path, patch)) as f:
            text = f.read()
        write(path, patch, text.replace("+\treturn 1;", "+\treturn 7;"))
        self.assertTrue(self.cells()["speed"].startswith("stale, "))

    def test_series_before_its_directory(self):
        os.rename(os.path.join(self.lab.root, "patches/6.1"), os.path.join(self.lab.root, "p"))
        for f in os.listdir(os.path.join(self.lab.root, "p")):
            os.rename(os.path.join(self.lab.root, "p", f), os.path.join(self.lab.root, "patches", f))
        os.rmdir(os.path.join(self.lab.root, "p"))
        at = self.measure()
        self.kernel.series(self.lab.root, "patches/6.1")
        for f in os.listdir(os.path.join(self.lab.root, "patches")):
            if f.endswith(".patch"):
                os.remove(os.path.join(self.lab.root, "patches", f))
        self.lab.commit("patches/6.1/")
        self.assertTrue(self.cells()["speed"].startswith("×8.35, %s" % at[:12]))

    def test_evidence_names_its_commit(self):
        head = self.lab.commit("before the record")
        write(self.lab.root, "results/evidence/6.1/gate.log",
              "# lab commit: %s\n# exit status: 0\n" % head)
        self.lab.commit("the record")
        self.assertEqual(self.cells()["gate"],
                         "✓, %s, [results/evidence/6.1/gate.log](results/evidence/6.1/gate.log)" % head[:12])

    def test_results_file_names_its_commit(self):
        measured = self.lab.commit("before the run")
        write(self.lab.root, "results/bench.log", "Measured at lab commit %s.\n%s" % (measured[:7], MT))
        self.lab.commit("the run")
        write(self.lab.root, "results/bench.log", "Measured at lab commit %s.\n%sprose\n" % (measured[:7], MT))
        self.lab.commit("a prose edit")
        self.assertEqual(self.cells()["bench"],
                         "×0.021, %s, [results/bench.log](results/bench.log)" % measured[:12])
        write(self.lab.root, "results/bench.log", "Measured at lab commit 0123456.\n" + MT)
        self.lab.commit("a commit that is not there")
        with self.assertRaisesRegex(matrix.Error, "no such commit"):
            self.cells()

    def test_uncommitted_results(self):
        self.measure()
        write(self.lab.root, "results/icount/trials.csv", TRIALS + "icount,base,3,64,hashmap,full,0.351,M/s\n")
        self.assertEqual(self.cells()["speed"].split(", ")[:2], ["×8.35", "uncommitted"])


class ReadmeTest(Fixture):
    def setUp(self):
        super().setUp()
        write(self.lab.root, "results/icount/trials.csv", TRIALS)
        write(self.lab.root, "results/bench.log", MT)
        self.lab.commit("results")

    def test_write_then_check(self):
        self.assertEqual(self.lab.run("--check")[0], 1)
        self.assertEqual(self.lab.run()[0], 0)
        rc, out, _ = self.lab.run("--check")
        self.assertEqual((rc, out), (0, ""))
        with open(os.path.join(self.lab.root, "README.md")) as f:
            text = f.read()
        self.assertIn("intro\n\n%s\n| evidence | patches it depends on | 6.1 | 6.12 |\n" % matrix.START, text)
        self.assertIn("| 2. the speed-up | those touching `kernel/` | ×8.35, ", text)
        self.assertIn(" | not measured |\n%s\ntail\n" % matrix.END, text)

    def test_check_names_each_cell_that_differs(self):
        self.lab.run()
        readme = os.path.join(self.lab.root, "README.md")
        with open(readme) as f:
            text = f.read()
        m, row = self.row("speed")
        cell = m.cell(row, "6.1")
        write(self.lab.root, "README.md", text.replace("×8.35", "×9.35"))
        rc, out, _ = self.lab.run("--check")
        self.assertEqual(rc, 1)
        self.assertEqual(out.splitlines(), ["README.md: 2. the speed-up, 6.1: the table says '%s', the files "
                                            "give '%s'" % (cell.replace("×8.35", "×9.35"), cell)])
        write(self.lab.root, "README.md", text)
        self.kernel.commit("kernel/bpf/freelist.c", "return 1;", "return 5;", "bpf: pop faster still")
        self.kernel.series(self.lab.root, "patches/6.1")
        rc, out, _ = self.lab.run("--check")
        self.assertEqual(rc, 1)
        self.assertRegex(out, r"^README.md: 2. the speed-up, 6.1: the table says '×8.35, \w+, .*', "
                              r"the files give 'stale, \w+, .*'\n$")

    def test_missing_markers(self):
        write(self.lab.root, "README.md", "# lab\n")
        rc, _, err = self.lab.run("--check")
        self.assertEqual(rc, 1)
        self.assertIn("error: README.md: expected one '%s' line" % matrix.START, err)

    def test_recorder(self):
        rc, out, _ = self.lab.run("--recorder", "gate", "6.12")
        self.assertEqual((rc, out), (0, "results/evidence/6.12/gate.log\ttests/series/applies.sh\n"))
        rc, _, err = self.lab.run("--recorder", "speed", "6.1")
        self.assertEqual((rc, err), (1, "error: row speed has no evidence record for 6.1 (config/matrix)\n"))


class ConfigTest(unittest.TestCase):
    def test_errors(self):
        cases = [
            ("row a * x\n\t5.4\tf evidence c\n", "config/matrix:2: 5.4 is not a base"),
            ("row a * x\n\t6.1\tf guess c\n", "config/matrix:2: no extractor guess"),
            ("row a * x\nrow a * y\n", "config/matrix:2: row a defined twice"),
            ("\t6.1\tf evidence c\n", "config/matrix:1: a base's line before any row"),
            ("row a * x\n\t6.1\tf evidence c\n\t6.1\tg evidence d\n", "config/matrix:3: a second line for 6.1"),
            ("rows a\n", "config/matrix:1: expected 'row ID PATHS LABEL'"),
            ("# nothing\n", "config/matrix: no rows"),
            ("series-before 5.4 patches\n", "config/matrix:1: 5.4 is not a base"),
        ]
        for text, message in cases:
            with self.assertRaisesRegex(matrix.Error, "^" + message):
                matrix.parse_config(text, ["6.1", "6.12"])

    def test_sources(self):
        rows, before = matrix.parse_config(CONFIG, ["6.1", "6.12"])
        self.assertEqual(before, {"6.1": "patches"})
        self.assertEqual([r.id for r in rows], ["gate", "speed", "bench"])
        self.assertEqual(rows[0].sources["*"], [
            ("results/evidence/{base}/gate.log", "evidence", "tests/series/applies.sh"),
            ("timings.md", "ci_run", "series/applies")])
        self.assertEqual(rows[1].paths, ["kernel/"])
        self.assertEqual(rows[0].paths, ["*", "+messages"])

    def test_touches(self):
        patch = "diff --git a/kernel/bpf/x.c b/kernel/bpf/x.c\n"
        self.assertTrue(matrix.touches(patch, ["tools/", "kernel/"]))
        self.assertFalse(matrix.touches(patch, ["tools/"]))
        self.assertTrue(matrix.touches(patch, ["*"]))
        self.assertFalse(matrix.touches(patch, ["+messages"]))


if __name__ == "__main__":
    unittest.main()
