"""Unit tests of patch_keys.py: on every base's patches/, the same patches in the same order as
scripts/lib/patches.sh's series_patches and the same keys as its patch_key; and a patch's key is
the key (commit_key) of the commit it came from, which is what scripts/tree.sh compares."""
import os
import subprocess
import tempfile
import unittest

from readout import LAB_ROOT, patch_keys, records
from readout.testkit import ENV, git, write


def lib_sh(script, *args, tree=LAB_ROOT):
    """The output lines of SCRIPT run with scripts/lib.sh sourced (ARGS as $1...)."""
    env = {k: v for k, v in ENV.items() if k != "BASE"}
    env["LAB_TREE"] = tree
    p = subprocess.run(["bash", "-c", '. "$0/scripts/lib.sh" && ' + script, LAB_ROOT, *args],
                       capture_output=True, text=True, env=env)
    if p.returncode:
        raise AssertionError("scripts/lib.sh: %s" % p.stderr.strip())
    return p.stdout.splitlines()


class RealPatchesTest(unittest.TestCase):
    def test_every_base_as_lib_sh(self):
        bases = records.lab_bases()
        self.assertGreaterEqual(len(bases), 3)
        for base in bases:
            d = os.path.join(LAB_ROOT, "patches", base)
            with self.subTest(base=base):
                want = lib_sh('for f in $(series_patches "$1"); do echo "$f $(patch_key "$f")"; done', d)
                got = ["%s %s %s" % (f, *patch_keys.patch_key(f, LAB_ROOT)) for f in patch_keys.series_patches(d)]
                self.assertGreater(len(got), 1)
                self.assertEqual(got, want)


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
            want = lib_sh('commit_key "$1" "$2"', repo, commit, tree=repo)
            self.assertEqual([" ".join(patch_keys.patch_key(patch, repo))], want)
            self.assertNotEqual(patch_keys.patch_key(patch, repo)[0], "empty")


if __name__ == "__main__":
    unittest.main()
