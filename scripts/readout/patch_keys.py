"""The series' patches and their keys, as records.py stores them in a record's meta.json.

A base's patches/<base>/ holds one series (flat: NNNN-*.patch and 0000-cover-letter.patch) or
several, each in a directory NN-name/ of that shape, applied in NN order. A patch's key is two
hashes: git patch-id --stable of its change, and a hash of its subject and message (git mailinfo,
git stripspace, sha1), so that a patch and the commit git am makes of it have the same key.

The one definition of a key: the shell asks for its keys here, many at a time (scripts/lib/patches.sh's
patch_keys and commit_keys, which scripts/tree.sh and series.sh use):

    scripts/readout.py keys [-C DIR] PATCH...      the key of each patch, one a line, in order
    scripts/readout.py keys -C DIR --commits REV...  the key of each commit of the git tree DIR
"""
import glob
import hashlib
import os
import subprocess
import tempfile

from . import cli


class Error(cli.Error):
    """One line: a patch git cannot read."""


def series_dirs(directory):
    """The series of the base in directory, in the order they apply: each NN-name/, or directory
    itself when it has none (a flat base)."""
    dirs = sorted(d for d in glob.glob(os.path.join(glob.escape(directory), "[0-9][0-9]-*")) if os.path.isdir(d))
    return dirs or [directory]


def one_series_patches(directory):
    """The patches of one series, in order: every NNNN-*.patch but the cover letter (0000-*)."""
    found = glob.glob(os.path.join(glob.escape(directory), "[0-9][0-9][0-9][0-9]-*.patch"))
    return sorted(f for f in found if not os.path.basename(f).startswith("0000-"))


def series_patches(directory):
    """Every patch of the base in directory, series after series, in the order git am applies them:
    the same list as scripts/lib/patches.sh's series_patches (unit/series_patches_match_across_languages)."""
    return [p for d in series_dirs(directory) for p in one_series_patches(d)]


def _git(args, data, cwd=None):
    p = subprocess.run(["git", *args], input=data, capture_output=True, cwd=cwd)
    if p.returncode:
        raise Error("git %s: %s" % (args[0], p.stderr.decode(errors="replace").strip()))
    return p.stdout


def patch_key(path, repo=None):
    """(patch_id, message) of the patch file at path: git patch-id --stable of its change (run in
    repo when given), "empty" for a patch that changes nothing; and the sha1 of its subject, a blank
    line and its message, through git stripspace."""
    with open(path, "rb") as f:
        data = f.read()
    pid = b"\n".join(line[:40] for line in _git(["patch-id", "--stable"], data, cwd=repo).splitlines())
    with tempfile.TemporaryDirectory() as tmp:
        msg, rest = os.path.join(tmp, "msg"), os.path.join(tmp, "patch")
        info = _git(["mailinfo", msg, rest], data)
        with open(msg, "rb") as f:
            message = f.read()
    subject = b"\n".join(line[len(b"Subject: "):] for line in info.splitlines() if line.startswith(b"Subject: "))
    text = _git(["stripspace"], subject.rstrip(b"\n") + b"\n\n" + message)
    return (pid.decode() or "empty"), hashlib.sha1(text).hexdigest()


def commit_key(repo, rev):
    """(patch_id, message) of the commit rev of repo, the same as patch_key of the patch that git
    format-patch makes of it (and of the one git am made it from): git patch-id --stable of its
    change, and the sha1 of its message through git stripspace."""
    pid = _git(["patch-id", "--stable"], _git(["show", rev], None, cwd=repo), cwd=repo).split(b" ", 1)[0]
    text = _git(["stripspace"], _git(["log", "-1", "--format=%B", rev], None, cwd=repo))
    return (pid.decode() or "empty"), hashlib.sha1(text).hexdigest()


def main(argv, prog):
    ap = cli.parser(prog, __doc__)
    ap.add_argument("-C", dest="repo", metavar="DIR", help="the git tree to run git patch-id in (with --commits: whose commits)")
    ap.add_argument("--commits", action="store_true", help="the arguments are commits of DIR, not patch files")
    ap.add_argument("what", nargs="*", metavar="PATCH|REV")
    args = ap.parse_args(argv)
    if args.commits and not args.repo:
        ap.error("--commits needs -C DIR")
    for item in args.what:
        print("%s %s" % (commit_key(args.repo, item) if args.commits else patch_key(item, args.repo)))
    return 0
