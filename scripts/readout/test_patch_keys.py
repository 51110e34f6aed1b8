"""Unit tests of patch_keys.py: a patch's key is the key (commit_key) of the commit it came from,
which is what scripts/tree.sh and series.sh compare; readout.py keys gives them, one a line, in the
order asked; and every base's patches/ has its series and keys."""
import contextlib
import io
import os
import tempfile
import unittest

from readout import LAB_ROOT, cli, patch_keys, records
from readout.testkit import git, write


def keys(*argv):
    """readout.py keys ARGV...: its exit status and output lines."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = cli.main(["keys", *argv])
    return rc, out.getvalue().splitlines()


class RealPatchesTest(unittest.TestCase):
    def test_every_base(self):
        bases = records.lab_bases()
        self.assertGreaterEqual(len(bases), 3)
        for base in bases:
            d = os.path.join(LAB_ROOT, "patches", base)
            with self.subTest(base=base):
                found = patch_keys.series_patches(d)
                self.assertGreater(len(found), 1)
                self.assertFalse([f for f in found if os.path.basename(f).startswith("0000-")])
                rc, got = keys("-C", LAB_ROOT, *found)
                self.assertEqual(rc, 0)
                self.assertEqual(got, ["%s %s" % patch_keys.patch_key(f, LAB_ROOT) for f in found])
                self.assertFalse([k for k in got if k.startswith("empty ")])


class CommitKeyTest(unittest.TestCase):
    def test_a_patch_has_its_commits_key(self):
        with tempfile.TemporaryDirectory() as tmp:
            repo = os.path.join(tmp, "repo")
            git(tmp, "init", "-q", repo)
            write(repo, "a.c", "a\n")
            git(repo, "add", "a.c")
            git(repo, "commit", "-q", "-m", "base")
            write(repo, "a.c", "a\nb\n")
            git(repo, "commit", "-q", "-a", "-m", "bpf: a change\n\nWhy it is made,\nover two lines.\n\nSigned-off-by: t <t@t>")
            patch = git(repo, "format-patch", "-1", "-o", tmp, "HEAD")
            commit = git(repo, "rev-parse", "HEAD")
            self.assertEqual(patch_keys.patch_key(patch, repo), patch_keys.commit_key(repo, commit))
            self.assertNotEqual(patch_keys.patch_key(patch, repo)[0], "empty")
            # in a batch, in the order asked; the base commit changes a file from nothing
            rc, got = keys("-C", repo, "--commits", commit, "HEAD~1", commit)
            self.assertEqual(rc, 0)
            self.assertEqual(got[0], "%s %s" % patch_keys.patch_key(patch, repo))
            self.assertEqual(got[2], got[0])
            self.assertNotEqual(got[1], got[0])
            # another message, the same change: another key
            git(repo, "commit", "-q", "--amend", "-m", "bpf: a change\n\nWhy it is made.")
            self.assertEqual(keys("-C", repo, "--commits", "HEAD")[1][0].split()[0], got[0].split()[0])
            self.assertNotEqual(keys("-C", repo, "--commits", "HEAD")[1], got[:1])

    def test_one_line_errors(self):
        with contextlib.redirect_stderr(io.StringIO()) as err:
            self.assertEqual(keys("/nonexistent.patch")[0], 1)
            self.assertEqual(err.getvalue(), "readout.py keys: error: /nonexistent.patch: No such file or directory\n")
        with contextlib.redirect_stderr(io.StringIO()) as err, self.assertRaises(SystemExit) as e:
            keys("--commits", "HEAD")
        self.assertEqual(e.exception.code, 2)
        self.assertEqual(err.getvalue(), "readout.py keys: error: --commits needs -C DIR (readout.py keys -h)\n")


if __name__ == "__main__":
    unittest.main()
