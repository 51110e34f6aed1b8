"""Unit tests of records.py: a record written from a tool's outputs, its meta.json and the schema
check, the patch keys of what was measured, and the selection of records, on scratch labs."""
import contextlib
import datetime
import io
import json
import os
import shutil
import tempfile
import unittest

from readout import cli, patch_keys, records
from readout.testkit import git, write

WHEN = datetime.datetime(2026, 12, 5, 10, 20, 30, tzinfo=datetime.timezone.utc)


def patch(n, path, subject, line):
    return ("From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\nFrom: t <t@t>\n"
            "Date: Thu, 1 Jan 2026 00:00:00 +0000\nSubject: [PATCH %d/2] %s\n\nWhy.\n\nSigned-off-by: t <t@t>\n"
            "---\n %s | 1 +\n\ndiff --git a/%s b/%s\nindex 1111111..2222222 100644\n--- a/%s\n+++ b/%s\n"
            "@@ -1 +1,2 @@\n a\n+%s\n-- \n2.39.5\n\n" % (n, subject, path, path, path, path, path, line))


class Fixture(unittest.TestCase):
    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.lab = os.path.join(tmp.name, "lab")
        self.out = os.path.join(tmp.name, "out")
        os.makedirs(self.out)
        git(tmp.name, "init", "-q", self.lab)
        for b in ("6.1", "7.3"):
            write(self.lab, "config/%s/base.conf" % b, "BASE_PACKAGE=linux-source-%s\n" % b)
        write(self.lab, "config/default-base", "# the default\n7.3\n")
        write(self.lab, "patches/7.3/0000-cover-letter.patch", "cover\n")
        write(self.lab, "patches/7.3/0001-a.patch", patch(1, "kernel/bpf/a.c", "bpf: a", "b"))
        write(self.lab, "patches/7.3/0002-b.patch", patch(2, "tools/bench.c", "selftests/bpf: b", "c"))
        git(self.lab, "add", "-A")
        git(self.lab, "commit", "-q", "-m", "lab")
        self.head = git(self.lab, "rev-parse", "HEAD")
        write(self.out, "trials.csv", "clock,variant\nicount,base\n")
        write(self.out, "run/base/x.json", "{}\n")

    def write(self, kind="compare", name="speed", files=None, **kw):
        files = files if files is not None else [("trials.csv", os.path.join(self.out, "trials.csv"))]
        kw.setdefault("now", WHEN)
        kw.setdefault("base", "7.3")
        return records.write(kind, name, kw.pop("what", "icount full map"), kw.pop("command", "make compare"),
                             kw.pop("clock", "icount"), files, lab_root=self.lab, **kw)


class WriteTest(Fixture):
    def test_a_record_and_its_meta(self):
        path = self.write(variants={"base": "abc"}, params={"trials": "2"})
        self.assertEqual(path, os.path.join(self.lab, "records/7.3/compare/20261205-102030-speed"))
        with open(os.path.join(path, "meta.json")) as f:
            meta = json.load(f)
        self.assertEqual((meta["kind"], meta["base"], meta["id"], meta["name"]),
                         ("compare", "7.3", "20261205-102030-speed", "speed"))
        self.assertEqual((meta["date"], meta["lab_commit"], meta["lab_dirty"]), ("2026-12-05T10:20:30Z", self.head, False))
        self.assertEqual((meta["clock"], meta["files"], meta["variants"], meta["params"]),
                         (["icount"], ["trials.csv"], {"base": "abc"}, {"trials": "2"}))
        self.assertEqual([s["file"] for s in meta["series"]], ["0001-a.patch", "0002-b.patch"])
        self.assertEqual(meta["series"][0]["paths"], ["kernel/bpf/a.c"])
        self.assertEqual(records.check_record(path, self.lab, ["6.1", "7.3"]), [])

    def test_patch_keys_are_make_trees(self):
        # the keys make tree compares (readout.py keys: patch_keys.patch_key)
        keys = records.series_keys(os.path.join(self.lab, "patches/7.3"), self.lab)
        f = os.path.join(self.lab, "patches/7.3/0001-a.patch")
        self.assertEqual((keys[0]["patch_id"], keys[0]["message"]), patch_keys.patch_key(f, self.lab))
        self.assertNotEqual(keys[0]["patch_id"], keys[1]["patch_id"])

    def test_a_base_of_several_series_is_read_in_order(self):
        # patches/<base>/NN-name/: the series in order, each file named relative to patches/<base>/
        d = os.path.join(self.lab, "patches/7.4")
        write(d, "02-later/0001-b.patch", patch(1, "tools/bench.c", "selftests/bpf: b", "c"))
        write(d, "02-later/0000-cover-letter.patch", "cover\n")
        write(d, "01-first/0001-a.patch", patch(1, "kernel/bpf/a.c", "bpf: a", "b"))
        keys = records.series_keys(d, self.lab)
        self.assertEqual([k["file"] for k in keys], ["01-first/0001-a.patch", "02-later/0001-b.patch"])
        self.assertEqual([k["paths"] for k in keys], [["kernel/bpf/a.c"], ["tools/bench.c"]])
        self.assertEqual([records.short_patch_name(k["file"]) for k in keys], ["01/0001", "02/0001"])
        self.assertEqual(records.short_patch_name("0010-x.patch"), "0010")

    def test_directories_and_names(self):
        path = self.write(kind="regress", name="regress", clock="none",
                          files=[("base", os.path.join(self.out, "run/base")),
                                 ("series", os.path.join(self.out, "run/base")),
                                 ("summary.txt", os.path.join(self.out, "trials.csv"))])
        with open(os.path.join(path, "meta.json")) as f:
            self.assertEqual(json.load(f)["files"], ["base/x.json", "series/x.json", "summary.txt"])

    def test_changes_outside_records_make_it_dirty(self):
        self.assertFalse(records.read_meta(self.write())["lab_dirty"])
        write(self.lab, "scripts/x.sh", "new\n")
        self.assertTrue(records.read_meta(self.write(name="again"))["lab_dirty"])

    def test_a_second_record_in_the_same_second_takes_the_next(self):
        self.write()
        self.assertTrue(self.write().endswith("/20261205-102031-speed"))

    def test_lab_wide_records_measure_every_base_s_series(self):
        path = self.write(kind="ci", name="ci-warm", base="all",
                          files=[("summary.json", os.path.join(self.out, "run/base/x.json"))])
        meta = records.read_meta(path)
        self.assertEqual({b: len(s) for b, s in meta["series"].items()}, {"6.1": 0, "7.3": 2})
        self.assertEqual(records.series_of(meta, "7.3"), records.series_of(records.read_meta(self.write()), "7.3"))

    def test_bad_input_leaves_nothing(self):
        cases = [
            (dict(kind="guess"), "--kind guess: expected one of compare"),
            (dict(base="5.4"), "--base 5.4: expected one of 6.1 7.3 all"),
            (dict(name="Speed up"), "--name 'Speed up'"),
            (dict(what="two\nlines"), "--what: one line"),
            (dict(clock="cycles"), "--clock 'cycles': expected some of icount"),
            (dict(command=" "), "--command: the exact command"),
            (dict(files=[]), "no data files"),
            (dict(files=[("x", "/nonexistent/x")]), "/nonexistent/x: no such file"),
            (dict(files=[("meta.json", os.path.join(self.out, "trials.csv"))]), "'meta.json': not a name"),
            (dict(files=[("../x", os.path.join(self.out, "trials.csv"))]), "'../x': not a name"),
            (dict(files=[("x.csv", os.path.join(self.out, "trials.csv"))]), "a compare record holds trials.csv"),
            (dict(kind="evidence", files=[("output.log", os.path.join(self.out, "trials.csv"))]),
             "an evidence record has the command's exit status"),
        ]
        for kw, message in cases:
            with self.assertRaisesRegex(records.Error, message.replace("(", r"\(").replace(")", r"\)")):
                self.write(**kw)
        self.assertEqual(records.record_dirs(os.path.join(self.lab, "records")), [])
        leftovers = [d for _, ds, _ in os.walk(os.path.join(self.lab, "records")) for d in ds if d.startswith(".new")]
        self.assertEqual(leftovers, [])


class FieldsTest(Fixture):
    def test_the_lab_s_fields_are_write_s(self):
        fields = records.lab_fields("bench", "7.3", self.lab)
        meta = records.read_meta(self.write(kind="bench", files=[("bench.log", os.path.join(self.out, "trials.csv"))]))
        self.assertEqual(fields, {k: meta[k] for k in fields})
        self.assertEqual(set(fields), {"schema", "kind", "base", "lab_commit", "lab_dirty", "series"})

    def test_a_record_written_elsewhere_from_them_is_valid(self):
        # what make kit's run-kit.sh writes: the lab's fields, then its own
        path = os.path.join(self.lab, "records/7.3/bench/20261205-102030-kit-series")
        write(path, "bench.log", "lab-raw: bench full-update-full hashmap\nlab-raw-end: rc=0\n")
        meta = dict(records.lab_fields("bench", "7.3", self.lab), id="20261205-102030-kit-series",
                    name="kit-series", what="run-kit.sh", command="./run-kit.sh", clock=["native"],
                    machine="8 CPUs", date="2026-12-05T10:20:30Z", files=["bench.log"])
        write(path, "meta.json", json.dumps(meta))
        self.assertEqual(records.check_record(path, self.lab, ["6.1", "7.3"]), [])

    def test_bad_kind_or_base(self):
        with self.assertRaisesRegex(records.Error, "--kind guess: expected one of"):
            records.lab_fields("guess", "7.3", self.lab)
        with self.assertRaisesRegex(records.Error, "--base 5.4: expected one of 6.1 7.3 all"):
            records.lab_fields("bench", "5.4", self.lab)


class CheckTest(Fixture):
    def test_what_the_check_finds(self):
        path = self.write()
        meta_path = os.path.join(path, "meta.json")
        with open(meta_path) as f:
            good = json.load(f)

        def problems(change=None, drop=None, extra_file=None):
            meta = dict(good, **(change or {}))
            for k in drop or []:
                del meta[k]
            with open(meta_path, "w") as f:
                json.dump(meta, f)
            if extra_file:
                write(path, extra_file, "x\n")
            try:
                return " | ".join(records.check_record(path, self.lab, ["6.1", "7.3"]))
            finally:
                if extra_file:
                    os.remove(os.path.join(path, extra_file))

        self.assertEqual(problems(), "")
        self.assertIn("meta.json has no command", problems(drop=["command"]))
        self.assertIn("clock is not a list", problems({"clock": "icount"}))
        self.assertIn("clock ['tsc']: expected some of", problems({"clock": ["tsc"]}))
        self.assertIn("meta.json names 7.3/compare/20261205-102030-other", problems({"id": "20261205-102030-other"}))
        self.assertIn("id 20261205-102030-speed is not its date 2026-12-06T10:20:30Z",
                      problems({"date": "2026-12-06T10:20:30Z"}))
        self.assertIn("lab_commit abc is not a full commit id", problems({"lab_commit": "abc"}))
        self.assertIn("unknown fields colour", problems({"colour": "red"}))
        self.assertIn("files plot.png trials.csv, meta.json lists trials.csv", problems(extra_file="plot.png"))
        self.assertIn("a series entry is not", problems({"series": [{"file": "x"}]}))
        self.assertIn("series is a list of patches (a base's record) or {base: list}", problems({"series": {}}))
        self.assertIn("is not a commit of the lab", " ".join(records.check_record(
            path, self.lab, commits=lambda sha: False)))
        os.remove(os.path.join(path, "trials.csv"))
        self.assertIn("a compare record holds trials.csv", problems({"files": []}))

    def test_a_commit_outside_the_history_is_not_the_lab_s(self):
        # a scratch worktree's commit, later cherry-picked: here as an object, not in a fresh clone
        tree = git(self.lab, "rev-parse", "HEAD^{tree}")
        loose = git(self.lab, "commit-tree", tree, "-p", self.head, "-m", "scratch")
        commits = records.git_commits(self.lab)
        self.assertTrue(commits(self.head))
        self.assertFalse(commits(loose))
        self.assertFalse(commits("0" * 40))

    def test_command_line(self):
        self.write()
        out, err = io.StringIO(), io.StringIO()
        env = dict(os.environ)
        os.environ["LAB_RECORDS"] = os.path.join(self.lab, "records")
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                rc_write = cli.main(["records", "write", "--kind", "evidence", "--name", "vm-boot", "--clock", "none",
                                         "--status", "3", "--what", "a row", "--command", "BASE=7.3 x", "--base", "7.3",
                                         "output.log=" + os.path.join(self.out, "trials.csv")])
                rc_show = cli.main(["records", "show", "7.3/compare/20261205-102030-speed"])
                rc_latest = cli.main(["records", "latest", "--base", "7.3", "--kind", "compare"])
                rc_none = cli.main(["records", "latest", "--base", "6.1", "--kind", "compare"])
        finally:
            os.environ.clear()
            os.environ.update(env)
        self.assertEqual((rc_write, rc_show, rc_latest, rc_none), (0, 0, 0, 1))
        written = records.load(os.path.join(self.lab, "records"), "7.3", "evidence")
        self.assertEqual([(r.meta["command"], r.meta["status"], r.meta["files"]) for r in written],
                         [("BASE=7.3 x", 3, ["output.log"])])
        self.assertIn("7.3/compare/20261205-102030-speed: icount full map\n  command:    make compare\n", out.getvalue())
        self.assertIn("/records/7.3/compare/20261205-102030-speed\n", out.getvalue())
        self.assertIn("readout.py records: error: no compare record of 6.1 in ", err.getvalue())


class KtapTest(unittest.TestCase):
    def test_check_sh_output(self):
        log = ("TAP version 13\n1..2\n>>> unit/a ...\nok 1 unit/a (2s)\nnot ok 2 7.3/series/b (30s)\n"
               "# | not ok 1 b\n0 passed, 1 failed, 0 skipped\nTAP version 13\n1..3\nok 1 unit/a (1s)\n"
               "ok 2 7.3/series/b (31s)\nok 3 6.1/vm/c # SKIP no KVM\n2 passed, 0 failed, 1 skipped\n")
        self.assertEqual(records.ktap_summary(log), {
            "passed": 2, "failed": 0, "skipped": 1, "test_seconds": {"unit/a": 1, "7.3/series/b": 31},
            "tests": {"unit/a": "ok", "7.3/series/b": "ok", "6.1/vm/c": "skip"}})
        with self.assertRaisesRegex(records.Error, "not the output of scripts/check.sh"):
            records.ktap_summary("ok 1 x\n")


class LoadTest(Fixture):
    def test_selection(self):
        old = self.write(name="speed")
        new = self.write(name="speed", now=WHEN + datetime.timedelta(days=1))
        other = self.write(name="other", now=WHEN + datetime.timedelta(days=2))
        lab = self.write(kind="compare", name="lab", base="all", now=WHEN + datetime.timedelta(days=3))
        self.write(kind="compare", name="old61", base="6.1")
        root = os.path.join(self.lab, "records")
        self.assertEqual([r.path for r in records.load(root, "7.3", "compare")], [old, new, other, lab])
        self.assertEqual([r.path for r in records.load(root, "7.3", "compare", "speed")], [old, new])
        self.assertEqual([r.id for r in records.load(root, "6.1")], ["20261205-102030-old61", lab.rsplit("/", 1)[1]])
        shutil.rmtree(new)
        self.assertEqual(records.load(root, "7.3", "compare", "speed")[-1].path, old)

    def test_ids_of_series(self):
        keys = records.series_keys(os.path.join(self.lab, "patches/7.3"), self.lab)
        self.assertEqual(len(records.series_ids(keys, ["kernel/"], False)), 1)
        self.assertEqual(len(records.series_ids(keys, ["*"], True)), 2)
        self.assertEqual(records.series_ids(keys, ["lib/"], False), set())
        self.assertTrue(all(isinstance(k, tuple) for k in records.series_ids(keys, ["*"], True)))


if __name__ == "__main__":
    unittest.main()
