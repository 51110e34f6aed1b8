"""Unit tests of matrix.py (make matrix): the extractors on records, the choice of a record,
staleness by the patch-ids a record measured, the table and the README check, on scratch labs."""
import contextlib
import datetime
import io
import json
import os
import shutil
import tempfile
import unittest

from readout import cli, matrix, records, testkit
from readout.testkit import TRIALS_64, write

ENV = dict(testkit.ENV, GIT_AUTHOR_DATE="2026-12-01T00:00:00Z", GIT_COMMITTER_DATE="2026-12-01T00:00:00Z")
T0 = datetime.datetime(2026, 12, 5, 10, 0, 0, tzinfo=datetime.timezone.utc)


def git(root, *args):
    return testkit.git(root, *args, env=ENV)


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
row gate *,+messages the series applies
\t*\tevidence:gate evidence tests/series/applies.sh || ci ci_run series/applies
row speed kernel/ the speed-up
\t6.1\tcompare mean_ratio icount full 64
row bench tools/ the bench output
\t6.1\tmt native_ratio exhausted:64
"""

TRIALS = TRIALS_64 + """\
icount,base,1,2,hashmap,full,2.7,M/s
wall,series,1,64,hashmap,full,9.9,M/s
"""

MT = {"reps": 3, "versions": ["base", "series"], "medians": {"exhausted:64/base": 256.1, "exhausted:64/series": 5.5,
                                                             "exhausted:256/base": 1063.3}}


class Lab:
    """A scratch lab: config/<base>/base.conf, config/matrix, records."""

    def __init__(self, root, bases=("6.1", "6.12")):
        self.root = root
        self.data = os.path.join(root, "..", "data")
        os.makedirs(self.data, exist_ok=True)
        git(root, "init", "-q")
        for b in bases:
            write(root, "config/%s/base.conf" % b, "BASE_PACKAGE=linux-source-%s\n" % b)
        write(root, "config/default-base", "6.1\n")
        write(root, "config/matrix", CONFIG)
        self.when = T0
        self.commit("lab")

    def commit(self, message):
        git(self.root, "add", "-A")
        git(self.root, "commit", "-q", "-m", message)
        return git(self.root, "rev-parse", "HEAD")

    def record(self, kind, name, files, base="6.1", **kw):
        """A record as a tool writes it: files {name: text or dict (JSON)}; a minute after the last."""
        paths = []
        for fname, content in files.items():
            path = os.path.join(self.data, "%s-%s" % (self.when.strftime("%H%M%S"), fname.replace("/", "-")))
            write(self.data, os.path.basename(path), json.dumps(content) if isinstance(content, dict) else content)
            paths.append((fname, path))
        self.when += datetime.timedelta(minutes=1)
        return records.write(kind, name, kw.pop("what", "a measurement"), kw.pop("command", "a command"),
                             kw.pop("clock", "icount"), paths, base=base, lab_root=self.root, now=self.when, **kw)

    def matrix(self):
        return matrix.Matrix(self.root)

    def run(self, *args):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = cli.main(["matrix", "--root", self.root, *args])
        return rc, out.getvalue(), err.getvalue()


def flat(cell):
    """A cell (text, target, title) as one line: 'TEXT, LAB COMMIT, [KIND/ID](TARGET)', or
    'not measured: WHY, [PAGE](TARGET)'."""
    text, target, title = cell
    if target is None:
        return text
    if text == matrix.NOT_MEASURED:
        return "%s: %s, [%s](%s)" % (text, title, os.path.basename(target), target)
    commit = title.split(";")[0].replace("lab commit ", "")
    kind, ident = target.rstrip("/").split("/")[-2:]
    return "%s, %s, [%s/%s](%s)" % (text, commit, kind, ident, target)


def fixture_template():
    """The kernel tree and the lab every test starts from, made once (a dozen git commands) and
    copied for each test: {"kernel": Kernel, "lab": Lab} in a directory removed at exit."""
    global TEMPLATE
    if TEMPLATE is None:
        tmp = tempfile.TemporaryDirectory()
        os.makedirs(os.path.join(tmp.name, "kernel"))
        os.makedirs(os.path.join(tmp.name, "lab"))
        kernel = Kernel(os.path.join(tmp.name, "kernel"))
        lab = Lab(os.path.join(tmp.name, "lab"))
        kernel.commit("kernel/bpf/freelist.c", "return 0;", "return 1;", "bpf: pop faster")
        kernel.commit("tools/bench.c", "return 0;", "return 2;", "selftests/bpf: bench it")
        kernel.series(lab.root, "patches/6.1")
        lab.commit("series")
        TEMPLATE = tmp
    return TEMPLATE.name


TEMPLATE = None


class Fixture(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        shutil.copytree(fixture_template(), self.tmp.name, symlinks=True, dirs_exist_ok=True)
        self.kernel = Kernel.__new__(Kernel)
        self.kernel.root = os.path.join(self.tmp.name, "kernel")
        self.lab = Lab.__new__(Lab)
        self.lab.root = os.path.join(self.tmp.name, "lab")
        self.lab.data = os.path.join(self.lab.root, "..", "data")
        self.lab.when = T0

    def ctx(self, base):
        return matrix.Context(self.lab.root, base)

    def record(self, kind, name, files, **kw):
        return records.Record(*(lambda p: (p, records.read_meta(p)))(self.lab.record(kind, name, files, **kw)))

    def cells(self, base="6.1"):
        m = self.lab.matrix()
        return {r.id: flat(m.cell(r, base)) for r in m.rows}

    def row(self, ident):
        m = self.lab.matrix()
        return m, next(r for r in m.rows if r.id == ident)


class ExtractorTest(Fixture):
    def test_mean_ratio(self):
        r = self.record("compare", "speed", {"trials.csv": TRIALS})
        self.assertEqual(matrix.ex_mean_ratio(r, "icount full 64", self.ctx("6.1")).text, "×8.35")    # 2.930 / 0.351
        with self.assertRaises(matrix.Missing):    # no series at 2, no trials at 255
            matrix.ex_mean_ratio(r, "icount full 2", self.ctx("6.1"))
        with self.assertRaises(matrix.Missing):
            matrix.ex_mean_ratio(r, "icount full 255", self.ctx("6.1"))
        with self.assertRaisesRegex(matrix.Error, "mean_ratio needs CLOCK BENCHMARK POSSIBLE"):
            matrix.ex_mean_ratio(r, "icount full", self.ctx("6.1"))

    def test_native_ratio_from_the_table_or_every_repetition(self):
        r = self.record("mt", "series", {"summary.json": MT}, clock="native")
        self.assertEqual(matrix.ex_native_ratio(r, "exhausted:64", self.ctx("6.1")).text, "×0.021")
        with self.assertRaises(matrix.Missing):    # no series there
            matrix.ex_native_ratio(r, "exhausted:256", self.ctx("6.1"))
        reps = {"reps": 3, "ms": 200, "versions": ["base", "series"],
                "ns": {"exhausted:64/base": [250.0, 256.1, 300.0], "exhausted:64/series": [9.0, 5.5, 5.0]}}
        r = self.record("mt", "series", {"results.json": reps, "mt.log": "log\n"}, clock="native")
        self.assertEqual(matrix.ex_native_ratio(r, "exhausted:64", self.ctx("6.1")).text, "×0.021")

    VS = ("6.1 series (...)\n"
          "use case             flavour       barrier k/s    MiB   x upstream     turn k/s    MiB   x upstream"
          "   upstream k/s    MiB\n"
          "overwrite            bpf-ma           10.00   1.30       x0.95~       12.00   1.30        x1.14"
          "          10.50   1.20\n"
          "add_del_on_diff_cpu  prealloc          2.05   1.30        x1.95        2.50   1.30       x2.38~"
          "           1.05   1.20\n")

    def test_htab_mem_vs_upstream(self):
        r = self.record("htab-mem", "vs", {"table.txt": self.VS, "runs.log": "runs\n"}, clock="wall-tcg")
        v = matrix.ex_htab_mem_vs_upstream(r, "", self.ctx("6.1"))
        self.assertEqual((v.text, v.detail), ("✗ 1 of 2 ≈ upstream", "1 of 2 use cases not significantly different "
                                                                     "from upstream's; barrier: x0.95 x1.95"))
        self.assertEqual(matrix.ex_htab_mem_vs_upstream(r, "turn", self.ctx("6.1")).detail,
                         "1 of 2 use cases not significantly different from upstream's; turn: x1.14 x2.38")
        with self.assertRaisesRegex(matrix.Error, "no column 'spin'"):
            matrix.ex_htab_mem_vs_upstream(r, "spin", self.ctx("6.1"))
        r = self.record("htab-mem", "vs", {"table.txt": self.VS.replace("x1.95 ", "x1.95~"), "runs.log": "r\n"},
                        clock="wall-tcg")
        self.assertEqual(matrix.ex_htab_mem_vs_upstream(r, "barrier", self.ctx("6.1")).text, "✓ 2 of 2 ≈ upstream")

    @staticmethod
    def suite(name, results):
        return {"suite": name, "wall": 60, "tests": [{"name": n, "result": r} for n, r in results.items()]}

    def regress_record(self, series_result, allow="", toolchain=None):
        params = {"allow": allow}
        if toolchain:
            params["toolchain"] = toolchain
        files = {"base/test_progs.json": self.suite("test_progs", {"a": "OK", "b": "OK", "c": "FAIL"}),
                 "series/test_progs.json": self.suite("test_progs", {"a": "OK", "b": series_result, "c": "OK"}),
                 "base/test_verifier.json": self.suite("test_verifier", {"test_verifier": "OK"}),
                 "series/test_verifier.json": self.suite("test_verifier", {"test_verifier": "OK"})}
        return self.record("regress", "regress", files, clock="none", params=params)

    def test_regress(self):
        r = self.regress_record("OK")
        self.assertEqual(matrix.ex_regress(r, "test_progs,test_verifier whole", self.ctx("6.1")).text, "✓ (0 new)")
        with self.assertRaises(matrix.Missing):    # the run has no test_maps
            matrix.ex_regress(r, "test_progs,test_maps", self.ctx("6.1"))
        r = self.regress_record("FAIL")
        self.assertEqual(matrix.ex_regress(r, "test_progs", self.ctx("6.1")).text, "✗ (1 new)")
        r = self.regress_record("OK", allow="a,b")
        with self.assertRaises(matrix.Missing):    # a run of selected tests is not a whole run
            matrix.ex_regress(r, "test_progs whole", self.ctx("6.1"))
        self.assertEqual(matrix.ex_regress(r, "test_progs", self.ctx("6.1")).text, "✓ (0 new)")

    def test_regress_toolchain(self):
        # a row of gcc's kernels never shows an LLVM=1 run, nor the llvm row a gcc run
        llvm = self.regress_record("FAIL", toolchain="llvm22-pahole1.30-1")
        with self.assertRaises(matrix.Missing):
            matrix.ex_regress(llvm, "test_progs", self.ctx("6.1"))
        self.assertEqual(matrix.ex_regress(llvm, "test_progs llvm", self.ctx("6.1")).text, "✗ (1 new)")
        for gcc in (self.regress_record("OK"), self.regress_record("OK", toolchain="gcc")):
            self.assertEqual(matrix.ex_regress(gcc, "test_progs", self.ctx("6.1")).text, "✓ (0 new)")
            with self.assertRaises(matrix.Missing):
                matrix.ex_regress(gcc, "test_progs llvm", self.ctx("6.1"))

    def test_evidence(self):
        r = self.record("evidence", "gate", {"output.log": "ok\n"}, clock="none", status=0)
        self.assertEqual(matrix.ex_evidence(r, "", self.ctx("6.1")).text, "✓")
        r = self.record("evidence", "gate", {"output.log": "not ok\n"}, clock="none", status=1)
        self.assertEqual(matrix.ex_evidence(r, "", self.ctx("6.1")).text, "✗ (exit 1)")

    def test_ci_run_with_its_results_or_the_list_at_its_commit(self):
        r = self.record("ci", "ci-warm", {"summary.json": {"passed": 3, "failed": 0, "tests": {
            "6.1/series/applies": "ok", "6.1/series/gates": "not ok", "6.12/series/mbox": "ok"}}},
            base="all", clock="wall-tcg")
        self.assertEqual(matrix.ex_ci_run(r, "series/applies", self.ctx("6.1")).text, "✓")
        self.assertEqual(matrix.ex_ci_run(r, "series/x|series/applies", self.ctx("6.1")).text, "✓")
        for tests, base in (("series/gates", "6.1"), ("series/mbox", "6.1"), ("series/applies", "6.12")):
            with self.assertRaises(matrix.Missing):
                matrix.ex_ci_run(r, tests, self.ctx(base))
        r = self.record("ci", "ci-warm", {"summary.json": {"passed": 3, "failed": 1}}, base="all", clock="wall-tcg")
        with self.assertRaises(matrix.Missing):
            matrix.ex_ci_run(r, "series/applies", self.ctx("6.1"))
        write(self.lab.root, "config/6.1/tests", "series/tree\nseries/applies\nslow series/gates  # LTS\n")
        self.lab.commit("the list")
        r = self.record("ci", "ci-cold", {"summary.json": {"passed": 9, "failed": 0}}, base="all", clock="wall-tcg")
        self.assertEqual(matrix.ex_ci_run(r, "series/applies", self.ctx("6.1")).text, "✓")
        with self.assertRaises(matrix.Missing):    # marked slow at that commit: not in make check
            matrix.ex_ci_run(r, "series/gates", self.ctx("6.1"))
        with self.assertRaises(matrix.Missing):    # 6.12 had no list then
            matrix.ex_ci_run(r, "series/applies", self.ctx("6.12"))

    def test_splats_as_check_debug_counts_them(self):
        write(self.lab.root, "config/6.1/known-splats", "BUG: KCSAN: data-race in a / b\t# the base's\n")
        log = ("[    1.0] BUG: KCSAN: data-race in a / b\n--- dmesg splats ---\n"
               "5:[    1.0] BUG: KCSAN: data-race in a / b\n--- end ---\n")
        r = self.record("check-debug", "check-debug", {"console.log": log}, clock="none")
        self.assertEqual(matrix.ex_splats(r, "", self.ctx("6.1")).text, "✓ (0 unknown, 1 known)")
        r = self.record("check-debug", "check-debug",
                        {"console.log": log + "[    2.0] WARNING: possible circular locking dependency detected\n"},
                        clock="none")
        self.assertEqual(matrix.ex_splats(r, "", self.ctx("6.1")).text, "✗ (1 unknown of 2)")


class CellTest(Fixture):
    def measure(self):
        self.lab.record("compare", "speed", {"trials.csv": TRIALS})
        self.lab.record("mt", "series", {"summary.json": MT}, clock="native")
        return git(self.lab.root, "rev-parse", "HEAD")

    def test_fresh(self):
        at = self.measure()
        cells = self.cells()
        self.assertEqual(cells["speed"], "×8.35, %s, [compare/20261205-100100-speed](records/6.1/compare/"
                                         "20261205-100100-speed/)" % at[:12])
        self.assertTrue(cells["bench"].startswith("×0.021, %s, " % at[:12]))
        self.assertEqual(cells["gate"], matrix.NOT_MEASURED)

    def test_the_newest_record_that_holds_the_evidence(self):
        self.lab.record("compare", "speed", {"trials.csv": TRIALS})
        self.lab.record("compare", "faster", {"trials.csv": TRIALS.replace("2.960", "3.960")})
        self.assertTrue(self.cells()["speed"].startswith("×9.77, "))
        self.lab.record("compare", "other", {"trials.csv": TRIALS.replace(",64,", ",16,")})
        self.assertIn("compare/20261205-100200-faster", self.cells()["speed"])
        _, row = self.row("speed")
        self.assertEqual(row.sources["6.1"][0].name, "")
        m = self.lab.matrix()
        m.rows[1].sources["6.1"][0].name = "speed"
        self.assertTrue(flat(m.cell(m.rows[1], "6.1")).startswith("×8.35, "))

    def test_a_lab_wide_record_serves_every_base(self):
        at = git(self.lab.root, "rev-parse", "HEAD")
        self.lab.record("ci", "ci-warm", {"summary.json": {"passed": 2, "failed": 0, "tests": {
            "6.1/series/applies": "ok", "6.12/series/applies": "ok"}}}, base="all", clock="wall-tcg")
        self.assertTrue(self.cells("6.1")["gate"].startswith("✓, %s, [ci/" % at[:12]))
        self.assertTrue(self.cells("6.12")["gate"].startswith("✓, %s, [ci/" % at[:12]))
        self.lab.record("evidence", "gate", {"output.log": "ok\n"}, clock="none", status=0)
        self.assertIn("[evidence/", self.cells("6.1")["gate"])
        self.assertIn("[ci/", self.cells("6.12")["gate"])

    def test_not_measured_gives_its_reason_and_never_reads_its_page(self):
        m, row = self.row("speed")
        row.sources["6.1"] = [matrix.Source("Documentation/why.md", "not_measured", "no boot at 255")]
        with self.assertRaisesRegex(matrix.Error, "Documentation/why.md, the page that says more, does not exist"):
            m.cell(row, "6.1")
        write(self.lab.root, "Documentation/why.md", "the guest does not boot\n")
        cell = flat(m.cell(row, "6.1"))
        self.assertEqual(cell, "not measured: no boot at 255, [why.md](Documentation/why.md)")
        write(self.lab.root, "Documentation/why.md", "reworded: it hangs in early boot\n")
        self.assertEqual(flat(m.cell(row, "6.1")), cell)

    def test_reworded_patch_is_stale_only_for_rows_on_messages(self):
        at = self.measure()
        self.lab.record("evidence", "gate", {"output.log": "ok\n"}, clock="none", status=0)
        self.assertTrue(self.cells()["gate"].startswith("✓, %s" % at[:12]))
        git(self.kernel.root, "rebase", "-q", "-x", "git commit -q --amend -m reworded", "base")
        self.kernel.series(self.lab.root, "patches/6.1")
        self.assertTrue(self.cells()["speed"].startswith("×8.35, %s" % at[:12]))
        self.assertTrue(self.cells()["gate"].startswith("stale, %s" % at[:12]))

    def test_changed_code_is_stale_for_the_rows_on_its_paths(self):
        at = self.measure()
        self.kernel.commit("tools/bench.c", "return 2;", "return 3;", "selftests/bpf: bench it again")
        self.kernel.series(self.lab.root, "patches/6.1")
        cells = self.cells()
        self.assertTrue(cells["speed"].startswith("×8.35, "), cells["speed"])    # kernel/ only
        self.assertTrue(cells["bench"].startswith("stale, %s, [mt/" % at[:12]))

    def test_split_patch_is_stale(self):
        self.measure()
        git(self.kernel.root, "reset", "-q", "--hard", "base")
        self.kernel.commit("kernel/bpf/freelist.c", "\treturn 0;", "\treturn 0 +", "bpf: pop, part 1")
        self.kernel.commit("kernel/bpf/freelist.c", "\treturn 0 +", "\treturn 1;", "bpf: pop, part 2")
        self.kernel.commit("tools/bench.c", "return 0;", "return 2;", "selftests/bpf: bench it")
        self.kernel.series(self.lab.root, "patches/6.1")
        self.assertTrue(self.cells()["speed"].startswith("stale, "))

    def test_a_record_carries_its_series_whatever_git_says(self):
        at = self.measure()
        shutil.rmtree(os.path.join(self.lab.root, ".git"))    # no history needed
        self.assertTrue(self.cells()["speed"].startswith("×8.35, %s" % at[:12]))

    def test_a_changed_record_changes_its_cell(self):
        path = self.lab.record("compare", "speed", {"trials.csv": TRIALS})
        before = self.cells()["speed"]
        write(path, "trials.csv", TRIALS.replace("2.960", "3.960"))
        self.assertNotEqual(self.cells()["speed"], before)
        self.assertTrue(self.cells()["speed"].startswith("×9.77, "))


class ReadmeTest(Fixture):
    def setUp(self):
        super().setUp()
        self.lab.record("compare", "speed", {"trials.csv": TRIALS})
        self.lab.record("mt", "series", {"summary.json": MT}, clock="native")

    def test_write_then_check(self):
        self.assertEqual(self.lab.run("--check")[0], 1)
        self.assertEqual(self.lab.run()[0], 0)
        rc, out, _ = self.lab.run("--check")
        self.assertEqual((rc, out), (0, ""))
        with open(os.path.join(self.lab.root, "EVIDENCE.md")) as f:
            text = f.read()
        self.assertTrue(text.startswith(matrix.GENERATED + "\n"))
        self.assertIn("\n| evidence | depends on | 6.1 | 6.12 |\n", text)
        self.assertIn("| 2. the speed-up | `kernel/` | [×8.35][1] | not measured |\n", text)
        at = git(self.lab.root, "rev-parse", "HEAD")[:12]
        self.assertIn('\n[1]: records/6.1/compare/20261205-100100-speed/ "lab commit %s"\n' % at, text)

    def test_check_names_each_cell_that_differs(self):
        self.lab.run()
        page = os.path.join(self.lab.root, "EVIDENCE.md")
        with open(page) as f:
            text = f.read()
        write(self.lab.root, "EVIDENCE.md", text.replace("×8.35", "×9.35"))
        rc, out, _ = self.lab.run("--check")
        self.assertEqual(rc, 1)
        self.assertEqual(out.splitlines(), ["EVIDENCE.md: 2. the speed-up, 6.1: the table says '[×9.35][1]', the "
                                            "records give '[×8.35][1]'"])
        write(self.lab.root, "EVIDENCE.md", text.replace("20261205-100100-speed", "20261205-100000-speed"))
        rc, out, _ = self.lab.run("--check")
        self.assertEqual(rc, 1)
        self.assertRegex(out, r"^EVIDENCE.md: \[1\] is 'records/6.1/compare/20261205-100000-speed/ .*', the records give "
                              r"'records/6.1/compare/20261205-100100-speed/ .*'\n$")
        write(self.lab.root, "EVIDENCE.md", text)
        self.kernel.commit("kernel/bpf/freelist.c", "return 1;", "return 5;", "bpf: pop faster still")
        self.kernel.series(self.lab.root, "patches/6.1")
        rc, out, _ = self.lab.run("--check")
        self.assertEqual(rc, 1)
        self.assertRegex(out, r"^EVIDENCE.md: 2. the speed-up, 6.1: the table says '\[×8.35\]\[1\]', "
                              r"the records give '\[stale\]\[1\]'\nEVIDENCE.md: \[1\] is .*\n$")

    def test_missing_page(self):
        rc, out, _ = self.lab.run("--check")
        self.assertEqual((rc, out), (1, "EVIDENCE.md: no such file (make matrix writes it)\n"))

    def test_recorder(self):
        rc, out, _ = self.lab.run("--recorder", "gate", "6.12")
        self.assertEqual((rc, out), (0, "tests/series/applies.sh\n"))
        rc, _, err = self.lab.run("--recorder", "speed", "6.1")
        self.assertEqual((rc, err), (1, "readout.py matrix: error: row speed has no evidence record for 6.1 (config/matrix)\n"))


class ConfigTest(unittest.TestCase):
    def test_errors(self):
        cases = [
            ("row a * x\n\t5.4\tevidence:a evidence c\n", "config/matrix:2: 5.4 is not a base"),
            ("row a * x\n\t6.1\tevidence guess c\n", "config/matrix:2: no extractor guess"),
            ("row a * x\n\t6.1\tDocumentation/results/x.csv mean_ratio c\n",
             "config/matrix:2: Documentation/results/x.csv is not a kind of record"),
            ("row a * x\n\t6.1\tcompare native_ratio c\n", "config/matrix:2: native_ratio reads mt records, not compare"),
            ("row a * x\n\t6.1\tREADME.md not_measured c\n", "config/matrix:2: not_measured names the page"),
            ("row a * x\n\t6.1\tDocumentation/x.md not_measured\n", "config/matrix:2: not_measured Documentation/x.md: "
                                                                   "no reason given"),
            ("row a * x\nrow a * y\n", "config/matrix:2: row a defined twice"),
            ("\t6.1\tevidence:a evidence c\n", "config/matrix:1: a base's line before any row"),
            ("row a * x\n\t6.1\tevidence:a evidence c\n\t6.1\tevidence:b evidence d\n",
             "config/matrix:3: a second line for 6.1"),
            ("rows a\n", "config/matrix:1: expected 'row ID PATHS LABEL'"),
            ("# nothing\n", "config/matrix: no rows"),
        ]
        for text, message in cases:
            with self.assertRaisesRegex(matrix.Error, "^" + message):
                matrix.parse_config(text, ["6.1", "6.12"])

    def test_sources(self):
        rows = matrix.parse_config(CONFIG, ["6.1", "6.12"])
        self.assertEqual([r.id for r in rows], ["gate", "speed", "bench"])
        self.assertEqual(rows[0].sources["*"], [matrix.Source("evidence:gate", "evidence", "tests/series/applies.sh"),
                                                matrix.Source("ci", "ci_run", "series/applies")])
        self.assertEqual((rows[0].sources["*"][0].kind, rows[0].sources["*"][0].name), ("evidence", "gate"))
        self.assertEqual(rows[1].paths, ["kernel/"])
        self.assertEqual(rows[0].paths, ["*", "+messages"])


if __name__ == "__main__":
    unittest.main()
