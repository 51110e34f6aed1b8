"""The lab's records: one directory per measurement, written by the tool that measured.

    records/<base>/<kind>/<id>/meta.json     what was measured, how, where, when, at which patches
    records/<base>/<kind>/<id>/<data>        what the tool produced: trials.csv, summary.json, logs

<base> is a base of config/ (or "all" for the lab's own records: CI runs, plants of lab tests),
<kind> the tool (KINDS below), <id> "YYYYMMDD-HHMMSS-NAME" (UTC, when it was written). Records
are written by tools only (scripts/readout.py records write, from the tool), never by hand, and are
not edited afterwards: a new measurement is a new record. make matrix and make findings read them.

  scripts/readout.py records write --kind KIND --name NAME --what TEXT --command CMD --clock CLOCK
                           [--base BASE] [--status N] [--variant NAME=REV]... [--param KEY=VALUE]...
                           [DEST=]FILE...
        a new record of FILEs (a directory is copied whole; DEST renames it in the record);
        prints its directory. Written under $LAB_RECORDS (default: records/ of this lab).
  scripts/readout.py records list [--base BASE] [--kind KIND]     one line a record, oldest first
  scripts/readout.py records show RECORD                          its meta.json and files
  scripts/readout.py records latest --base BASE --kind KIND [--name NAME]
                                                          the newest record's directory
  scripts/readout.py records check [RECORD...]                    the schema check (default: every record)
  scripts/readout.py records supersede                            mark every record that a newer one of the
                                                          same name and command replaces
  scripts/readout.py records fields --kind KIND --base BASE       the fields the lab gives a record (schema,
                                                          kind, base, lab_commit, lab_dirty, series)
                                                          as JSON, for a record written where no lab
                                                          is (make kit's run-kit.sh adds the others)
  scripts/readout.py records ktap LOG [--seconds N] [--cache cold|warm]
                                                          scripts/check.sh's output as a CI record's
                                                          summary.json (.ci/run)

meta.json (schema 1): kind, base, id, name, what (one line: what was measured), command (the exact
command), clock (a list of: icount, wall-tcg, wall-kvm, native, callgrind (instructions counted by
valgrind), none), machine, date (UTC, YYYY-MM-DDTHH:MM:SSZ), lab_commit (HEAD of the lab that
measured), lab_dirty (its working tree had changes outside records/), series (the patches of patches/<base>/ that were measured: file,
patch_id and message as patch_keys.patch_key computes them, and the paths each touches; a
lab-wide record has {base: its series} for every base),
files (every data file, relative), and optionally status (the command's exit status), variants
({name: commit of the kernel tree or patch}), params (the tool's own settings), migrated_from
(the files a one-time migration took it from) and note.

A record that a newer record of the same base, kind, name and command replaces is superseded: write marks
it with a file superseded-by holding the newer record's id (supersede marks the records written
before there was such a mark). It stays, as every record does; EVIDENCE.md and the findings never
cite it (make matrix and make findings refuse to).
"""
import datetime
import functools
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from . import LAB_ROOT, cli, patch_keys
SCHEMA = 1
SUPERSEDED = "superseded-by"    # a record's mark: the id of the newer record that replaces it
# kind: (what the tool is, the files a record of it must hold: a name, or "A|B" for either)
KINDS = {
    "compare": ("scripts/compare/compare.sh (make compare): interleaved trials of kernel variants", ["trials.csv"]),
    "bench": ("scripts/bench.sh (make bench): the benchmark suite of one kernel", ["bench.log"]),
    "scaling": ("scripts/compare/scaling.sh (make scaling): -p1 against -p2 of two benches", ["scaling.log"]),
    "htab-mem": ("scripts/compare/htab-mem.sh: 6.1's htab-mem against upstream's", ["runs.log", "table.txt"]),
    "regress": ("scripts/regress.sh (make regress): the BPF selftests on base and series", ["base", "series"]),
    "evidence": ("scripts/record-evidence.sh: one row of the evidence matrix", ["output.log"]),
    "check-debug": ("scripts/check-debug.sh (make check-debug): KCSAN and lockdep", ["console.log"]),
    "nmi": ("scripts/nmi-stackmap.sh: bpf_get_stackid() on a full stack map in NMI, per kernel", ["table.md"]),
    "ci": (".ci/run: CI's tests and how long they took", ["summary.json"]),
    "mt": ("tools/testing/pcpu_freelist/run.sh mt: the native multi-threaded harness", ["results.json|summary.json"]),
    "fastpath": ("tools/testing/pcpu_freelist/fastpath.py: fast paths of kernel objects, counted statically",
                 ["fastpath.txt"]),
    "sim": ("tools/testing/pcpu_freelist/run.sh sim: the cost MODEL (mt_model.py)", ["results.json"]),
    "plant": ("tests/plants.sh and scripts/plant.sh: each defect put back, its test failing", ["plant.log"]),
}
CLOCKS = ("icount", "wall-tcg", "wall-kvm", "native", "callgrind", "none")
ALL = "all"
NAME = re.compile(r"[a-z0-9][a-z0-9._-]*")
ID = re.compile(r"(\d{8})-(\d{6})-(%s)" % NAME.pattern)
DATE = re.compile(r"(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)Z")
SHA = re.compile(r"[0-9a-f]{40}")
REQUIRED = {"schema": int, "kind": str, "base": str, "id": str, "name": str, "what": str, "command": str,
            "clock": list, "machine": str, "date": str, "lab_commit": str, "lab_dirty": bool,
            "series": (list, dict), "files": list}
OPTIONAL = {"status": int, "variants": dict, "params": dict, "migrated_from": list, "note": str,
            "code_kept": str}
# Code is not data: a record holds what a tool produced and names the command that made it, a
# command of the lab (scripts/plant.sh runs any selftest or command on a plant). A file with one of
# these endings, or a #! line, is refused, unless meta.json's code_kept says why that record keeps
# it as it was.
CODE_ENDINGS = (".sh", ".bash", ".c", ".h", ".cc", ".cpp", ".py", ".pl", ".awk", ".S", ".mk")
CODE_NAMES = ("Makefile",)


def is_code(path):
    """Whether a record's file is code: by its name, or a #! first line."""
    name = os.path.basename(path)
    if name.endswith(CODE_ENDINGS) or name in CODE_NAMES:
        return True
    try:
        with open(path, "rb") as f:
            return f.read(2) == b"#!"
    except OSError:
        return False


def kind_name(kind):
    return " or ".join(k.__name__ for k in kind) if isinstance(kind, tuple) else kind.__name__


class Error(cli.Error):
    """One line: bad input, a record that does not hold what its meta.json says."""


def records_root(lab_root=LAB_ROOT):
    return os.environ.get("LAB_RECORDS") or os.path.join(lab_root, "records")


def lab_bases(lab_root=LAB_ROOT):
    config = os.path.join(lab_root, "config")
    return sorted((d for d in os.listdir(config) if os.path.isfile(os.path.join(config, d, "base.conf"))),
                  key=lambda b: [int(x) if x.isdigit() else x for x in re.split(r"(\d+)", b)])


# ---- the patches measured ----

def touched_paths(patch):
    """The paths a patch changes (both sides of each `diff --git` line), sorted."""
    found = set()
    for m in re.finditer(r"^diff --git a/(\S+) b/(\S+)$", patch, re.M):
        found.update(m.groups())
    return sorted(found)


def touches(paths, prefixes):
    """Whether one of paths is under one of prefixes ('*' matches everything)."""
    return "*" in prefixes or any(p.startswith(pre) for p in paths for pre in prefixes)


def series_keys(directory, repo=LAB_ROOT):
    """The series in directory (patch_keys.series_patches: NNNN-*.patch but the cover letter, of
    each series directory NN-name/ in order when it has them), each as {file, patch_id, message,
    paths}: file is relative to directory; patch_id and message are patch_keys.patch_key's (git
    patch-id --stable, and a hash of the subject and message); repo: a git repository for git
    patch-id to run in."""
    if not os.path.isdir(directory):
        return []
    # The keys follow from the files alone: a directory whose files (names and bytes) were seen
    # before in this process gives the same keys without running git again (make matrix and the
    # tests ask for the same series many times).
    digest = hashlib.sha1()
    for root, dirs, files in os.walk(directory):
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(root, name)
            digest.update(os.path.relpath(path, directory).encode() + b"\0")
            with open(path, "rb") as f:
                digest.update(f.read() + b"\0")
    memo = _SERIES_KEYS.get(digest.hexdigest())
    if memo is not None:
        return [dict(k, paths=list(k["paths"])) for k in memo]
    keys = []
    for path in patch_keys.series_patches(directory):
        try:
            pid, message = patch_keys.patch_key(path, repo)
        except patch_keys.Error as e:
            raise Error("%s: %s" % (path, e)) from None
        with open(path, encoding="utf-8", errors="replace") as f:
            paths = touched_paths(f.read())
        keys.append({"file": os.path.relpath(path, directory), "patch_id": pid, "message": message, "paths": paths})
    _SERIES_KEYS[digest.hexdigest()] = [dict(k, paths=list(k["paths"])) for k in keys]
    return keys


_SERIES_KEYS = {}    # series_keys' results by the digest of their directory's files


def short_patch_name(name):
    """A series entry's file as a listing shows it: 0010, or 02/0009 in a series directory."""
    series, _, patch = name.rpartition("/")
    return (series[:2] + "/" if series else "") + patch[:4]


def series_of(meta, base):
    """The series a record measured on base: its own, or that base's of a lab-wide record (all)."""
    return meta["series"].get(base, []) if isinstance(meta["series"], dict) else meta["series"]


def series_ids(series, prefixes, messages):
    """The set of a series' keys of the patches that touch prefixes: patch-ids, with their
    message hashes too when messages is true."""
    return {(k["patch_id"], k["message"]) if messages else k["patch_id"]
            for k in series if touches(k["paths"], prefixes)}


# ---- reading ----

class Record:
    def __init__(self, path, meta):
        self.path, self.meta = path, meta
        self.base, self.kind, self.id = meta["base"], meta["kind"], meta["id"]

    def file(self, name):
        return os.path.join(self.path, name)

    @property
    def superseded_by(self):
        """The id of the newer record of the same command that replaces this one, or None."""
        try:
            with open(self.file(SUPERSEDED), encoding="utf-8") as f:
                return f.read().strip() or None
        except FileNotFoundError:
            return None

    def has(self, name):
        return os.path.exists(self.file(name))

    def read(self, name):
        with open(self.file(name), encoding="utf-8", errors="replace") as f:
            return f.read()

    def json(self, name):
        with open(self.file(name), encoding="utf-8") as f:
            return json.load(f)

    def rel(self, lab_root=LAB_ROOT):
        """Its directory as the lab names it: records/<base>/<kind>/<id>."""
        return os.path.relpath(self.path, lab_root)

    def __repr__(self):
        return "%s/%s/%s" % (self.base, self.kind, self.id)


def read_meta(path):
    try:
        with open(os.path.join(path, "meta.json"), encoding="utf-8") as f:
            meta = json.load(f)
    except OSError:
        raise Error("%s: no meta.json" % path) from None
    except ValueError as e:
        raise Error("%s/meta.json: not JSON: %s" % (path, e)) from None
    if not isinstance(meta, dict) or not all(isinstance(meta.get(k), str) for k in ("base", "kind", "id")):
        raise Error("%s/meta.json: no base, kind and id" % path)
    return meta


def record_dirs(root):
    """Every records/<base>/<kind>/<id> directory under root, sorted."""
    out = []
    if not os.path.isdir(root):
        return out
    for base in sorted(os.listdir(root)):
        for kind in sorted(os.listdir(os.path.join(root, base))) if os.path.isdir(os.path.join(root, base)) else []:
            kdir = os.path.join(root, base, kind)
            if os.path.isdir(kdir):
                out += [os.path.join(kdir, i) for i in sorted(os.listdir(kdir)) if not i.startswith(".")]
    return out


def load(root, base=None, kind=None, name=None):
    """The records under root, oldest first (by id), of base (its own and the lab-wide ones, "all"),
    kind and name when given."""
    found = []
    for path in record_dirs(root):
        b, k = path.split(os.sep)[-3:-1]
        if (base and b not in (base, ALL)) or (kind and k != kind):
            continue
        r = Record(path, read_meta(path))
        if name and r.meta.get("name") != name:
            continue
        found.append(r)
    return sorted(found, key=lambda r: (r.id, r.base))


# ---- the schema ----

def check_record(path, lab_root=LAB_ROOT, bases=None, commits=None):
    """The problems of one record, one line each (empty: it is valid)."""
    try:
        meta = read_meta(path)
    except Error as e:
        return [str(e)]
    where = os.path.relpath(path, lab_root) if path.startswith(lab_root) else path
    bad = []
    for key, kind in REQUIRED.items():
        if key not in meta:
            bad.append("%s: meta.json has no %s" % (where, key))
        elif not isinstance(meta[key], kind):
            bad.append("%s: meta.json: %s is not a %s" % (where, key, kind_name(kind)))
    for key, kind in OPTIONAL.items():
        if key in meta and not isinstance(meta[key], kind):
            bad.append("%s: meta.json: %s is not a %s" % (where, key, kind_name(kind)))
    unknown = set(meta) - set(REQUIRED) - set(OPTIONAL)
    if unknown:
        bad.append("%s: meta.json: unknown fields %s" % (where, ", ".join(sorted(unknown))))
    if bad:
        return bad
    base, kind, ident = path.rstrip(os.sep).split(os.sep)[-3:]
    if (meta["base"], meta["kind"], meta["id"]) != (base, kind, ident):
        bad.append("%s: meta.json names %s/%s/%s" % (where, meta["base"], meta["kind"], meta["id"]))
    if meta["schema"] != SCHEMA:
        bad.append("%s: schema %s, expected %d" % (where, meta["schema"], SCHEMA))
    if meta["kind"] not in KINDS:
        bad.append("%s: kind %s is not one of %s" % (where, meta["kind"], " ".join(KINDS)))
    if bases is not None and meta["base"] not in bases + [ALL]:
        bad.append("%s: base %s is not one of %s" % (where, meta["base"], " ".join(bases + [ALL])))
    m, d = ID.fullmatch(meta["id"]), DATE.fullmatch(meta["date"])
    if not m:
        bad.append("%s: id %s is not YYYYMMDD-HHMMSS-NAME" % (where, meta["id"]))
    elif m.group(3) != meta["name"]:
        bad.append("%s: id %s does not end in its name %s" % (where, meta["id"], meta["name"]))
    if not d:
        bad.append("%s: date %s is not YYYY-MM-DDTHH:MM:SSZ" % (where, meta["date"]))
    elif m and m.group(1) + m.group(2) != "".join(d.groups()):
        bad.append("%s: id %s is not its date %s" % (where, meta["id"], meta["date"]))
    if not meta["what"].strip() or "\n" in meta["what"]:
        bad.append("%s: what is not one line" % where)
    if not meta["command"].strip():
        bad.append("%s: no command" % where)
    if not meta["clock"] or any(c not in CLOCKS for c in meta["clock"]):
        bad.append("%s: clock %s: expected some of %s" % (where, meta["clock"], ", ".join(CLOCKS)))
    if not SHA.fullmatch(meta["lab_commit"]):
        bad.append("%s: lab_commit %s is not a full commit id" % (where, meta["lab_commit"]))
    elif commits is not None and not commits(meta["lab_commit"]):
        bad.append("%s: lab_commit %s is not a commit of the lab's history (HEAD; a clone lacks it)" % (where, meta["lab_commit"]))
    if isinstance(meta["series"], dict) != (meta["base"] == ALL):
        bad.append("%s: series is a list of patches (a base's record) or {base: list} (a lab-wide one, all)" % where)
    lists = meta["series"].values() if isinstance(meta["series"], dict) else [meta["series"]]
    for s in (s for one in lists for s in (one if isinstance(one, list) else [one])):
        if not isinstance(s, dict) or set(s) != {"file", "patch_id", "message", "paths"}:
            bad.append("%s: a series entry is not {file, patch_id, message, paths}: %s" % (where, s))
            break
    have = sorted(os.path.relpath(os.path.join(d, f), path) for d, _, fs in os.walk(path) for f in fs)
    have.remove("meta.json") if "meta.json" in have else None
    if SUPERSEDED in have:
        have.remove(SUPERSEDED)
        with open(os.path.join(path, SUPERSEDED), encoding="utf-8") as f:
            newer = f.read().strip()
        if not ID.fullmatch(newer) or newer <= meta["id"]:
            bad.append("%s: %s names %s, not a newer record's id" % (where, SUPERSEDED, newer or "nothing"))
        elif not os.path.isdir(os.path.join(os.path.dirname(path), newer)):
            bad.append("%s: %s names %s, which is not a record of %s/%s" % (where, SUPERSEDED, newer, base, kind))
    if sorted(meta["files"]) != have:
        bad.append("%s: files %s, meta.json lists %s" % (where, " ".join(have), " ".join(sorted(meta["files"]))))
    code = [f for f in have if is_code(os.path.join(path, f))]
    if code and not meta.get("code_kept", "").strip():
        bad.append("%s: code in a record: %s (a record holds data and names the lab command that made it, "
                   "e.g. scripts/plant.sh; code_kept in meta.json says why an old record keeps its code)"
                   % (where, " ".join(code)))
    for need in KINDS.get(meta["kind"], ("", []))[1]:
        if not any(f == alt or f.startswith(alt + "/") for alt in need.split("|") for f in have):
            bad.append("%s: %s %s record holds %s" % (where, "an" if meta["kind"][0] in "aeiou" else "a",
                                                      meta["kind"], need.replace("|", " or ")))
    if meta["kind"] == "evidence" and "status" not in meta:
        bad.append("%s: an evidence record has the command's exit status" % where)
    return bad


def git_commits(lab_root):
    """A test of whether a commit id is in the history of the lab's HEAD (None: no repository, or
    no commit yet: then the check is not made).

    A commit that exists only as a loose object here (a scratch worktree's commit, later
    cherry-picked) is not in a fresh clone, so it does not count. A shallow clone lacks old
    commits too: the records are checked in a full clone."""
    out = subprocess.run(["git", "-C", lab_root, "rev-list", "HEAD"], capture_output=True, text=True)
    if out.returncode:
        return None
    history = set(out.stdout.split())
    return lambda sha: sha in history


# ---- writing ----

def git(lab_root, *args):
    p = subprocess.run(["git", "-C", lab_root, *args], capture_output=True, text=True)
    if p.returncode:
        raise Error("git %s: %s" % (" ".join(args), p.stderr.strip()))
    return p.stdout.strip()


@functools.lru_cache(maxsize=1)
def machine():
    """This machine in one line: host CPUs and model, kernel, QEMU."""
    model = ""
    try:
        with open("/proc/cpuinfo") as f:
            model = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), "")
    except OSError:
        pass
    try:
        qemu = subprocess.run(["qemu-system-x86_64", "--version"], capture_output=True,
                              text=True).stdout.split("\n")[0].split()
    except OSError:
        qemu = []
    text = "%d host CPUs (%s), Linux %s" % (os.cpu_count(), model or "unknown model", os.uname().release)
    return text + (", QEMU %s" % qemu[3] if len(qemu) > 3 else "")


def pairs(values, what):
    out = {}
    for v in values or []:
        key, sep, val = v.partition("=")
        if not sep or not key:
            raise Error("%s '%s': expected KEY=VALUE" % (what, v))
        out[key] = val
    return out


def lab_fields(kind, base, lab_root=LAB_ROOT):
    """The fields of a record that the lab gives, not the measurement: schema, kind, base, lab_commit,
    lab_dirty and series (of base, or of every base for "all"). write() takes them from here, and so
    does make kit, whose run-kit.sh writes its record where no lab is (readout.py records fields)."""
    bases = lab_bases(lab_root)
    if kind not in KINDS:
        raise Error("--kind %s: expected one of %s" % (kind, " ".join(KINDS)))
    if base != ALL and base not in bases:
        raise Error("--base %s: expected one of %s" % (base, " ".join(bases + [ALL])))
    dirty = git(lab_root, "status", "--porcelain", "--", ".", ":!records")
    return {
        "schema": SCHEMA, "kind": kind, "base": base, "lab_commit": git(lab_root, "rev-parse", "HEAD"),
        "lab_dirty": bool(dirty),
        "series": {b: series_keys(os.path.join(lab_root, "patches", b), lab_root) for b in bases} if base == ALL
        else series_keys(os.path.join(lab_root, "patches", base), lab_root),
    }


def write(kind, name, what, command, clocks, files, base=None, status=None, variants=None, params=None,
          lab_root=LAB_ROOT, root=None, now=None, extra=None):
    """A new record; returns its directory. files: [(name in the record, source path)]."""
    bases = lab_bases(lab_root)
    if not base:
        base = os.environ.get("BASE")
    if not base:
        with open(os.path.join(lab_root, "config", "default-base")) as f:
            base = next((line.split()[0] for line in f if line.strip() and not line.startswith("#")), "")
    if kind not in KINDS:
        raise Error("--kind %s: expected one of %s" % (kind, " ".join(KINDS)))
    if base != ALL and base not in bases:
        raise Error("--base %s: expected one of %s" % (base, " ".join(bases + [ALL])))
    if not NAME.fullmatch(name or ""):
        raise Error("--name '%s': expected lower-case letters, digits, '.', '_' and '-'" % name)
    if not what.strip() or "\n" in what:
        raise Error("--what: one line saying what was measured")
    if not command.strip():
        raise Error("--command: the exact command that measured")
    if isinstance(clocks, str):
        clocks = [c for c in re.split(r"[ ,]+", clocks) if c]
    if not clocks or any(c not in CLOCKS for c in clocks):
        raise Error("--clock '%s': expected some of %s" % (" ".join(clocks), ", ".join(CLOCKS)))
    if not files:
        raise Error("no data files: a record holds what the tool produced")
    for dest, src in files:
        if not os.path.exists(src):
            raise Error("%s: no such file" % src)
        if not dest or dest.startswith(("/", ".")) or "/../" in "/%s/" % dest or dest == "meta.json":
            raise Error("'%s': not a name for a record's file" % dest)
    now = now or datetime.datetime.now(datetime.timezone.utc)
    root = root or records_root(lab_root)
    kdir = os.path.join(root, base, kind)
    os.makedirs(kdir, exist_ok=True)
    # one id a record: a second record of the same name in the same second takes the next second
    while os.path.exists(os.path.join(kdir, "%s-%s" % (now.strftime("%Y%m%d-%H%M%S"), name))):
        now += datetime.timedelta(seconds=1)
    ident = "%s-%s" % (now.strftime("%Y%m%d-%H%M%S"), name)
    final = os.path.join(kdir, ident)
    lab = lab_fields(kind, base, lab_root)
    meta = {
        "schema": lab["schema"], "kind": kind, "base": base, "id": ident, "name": name, "what": what.strip(),
        "command": command.strip(), "clock": clocks, "machine": machine(),
        "date": now.strftime("%Y-%m-%dT%H:%M:%SZ"), "lab_commit": lab["lab_commit"],
        "lab_dirty": lab["lab_dirty"], "series": lab["series"],
    }
    if status is not None:
        meta["status"] = int(status)
    if variants:
        meta["variants"] = variants
    if params:
        meta["params"] = params
    meta.update(extra or {})
    tmp = tempfile.mkdtemp(prefix=".new-", dir=kdir)
    try:
        for dest, src in files:
            target = os.path.join(tmp, dest)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            if os.path.isdir(src):
                shutil.copytree(src, target)
            else:
                shutil.copyfile(src, target)
        meta["files"] = sorted(os.path.relpath(os.path.join(d, f), tmp) for d, _, fs in os.walk(tmp) for f in fs)
        with open(os.path.join(tmp, "meta.json"), "w", encoding="utf-8") as f:
            json.dump(meta, f, indent=1, ensure_ascii=False)
            f.write("\n")
        os.rename(tmp, final)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    problems = check_record(final, lab_root, bases)
    if problems:
        shutil.rmtree(final, ignore_errors=True)
        raise Error("; ".join(problems))
    mark_superseded(root, base, kind)
    return final


def mark_superseded(root, base=None, kind=None):
    """Mark each record that a newer one of the same base, kind, name and command replaces (its file
    superseded-by: the newest such record's id); returns the records marked now."""
    newest, marked = {}, []
    for r in reversed(load(root, base, kind)):
        if base and r.base != base:
            continue
        key = (r.base, r.kind, r.meta["name"], r.meta["command"])
        if key not in newest:
            newest[key] = r.id
        elif r.superseded_by != newest[key]:
            with open(r.file(SUPERSEDED), "w", encoding="utf-8") as f:
                f.write(newest[key] + "\n")
            marked.append(r)
    return marked


def ktap_summary(text):
    """scripts/check.sh's output (KTAP: "ok N name (time)", "not ok N name ...", "ok N name # SKIP
    reason", and last "N passed, N failed, N skipped"): the totals of its last run, and each test's
    last result (ok, not ok or skip) and seconds."""
    tests, seconds, totals = {}, {}, None
    for line in text.splitlines():
        m = re.match(r"^(not ok|ok) \d+ (\S+)(?: \((\d+)s\))?(.*)$", line)
        if m:
            tests[m.group(2)] = "skip" if "# SKIP" in m.group(4) else m.group(1)
            if m.group(3):
                seconds[m.group(2)] = int(m.group(3))
        m = re.match(r"^(\d+) passed, (\d+) failed(?:, (\d+) skipped)?$", line)
        if m:
            totals = [int(x or 0) for x in m.groups()]
    if totals is None:
        raise Error("no 'N passed, N failed' line: not the output of scripts/check.sh")
    return {"passed": totals[0], "failed": totals[1], "skipped": totals[2], "tests": tests, "test_seconds": seconds}


# ---- the command line ----

def show(record):
    m = record.meta
    lines = ["%s/%s/%s: %s" % (m["base"], m["kind"], m["id"], m["what"]),
             "  command:    %s" % m["command"],
             "  clock:      %s" % ", ".join(m["clock"]),
             "  machine:    %s" % m["machine"],
             "  date:       %s" % m["date"],
             "  lab commit: %s%s" % (m["lab_commit"], " (with changes)" if m["lab_dirty"] else "")]
    if "status" in m:
        lines.append("  status:     %d" % m["status"])
    for key in ("variants", "params"):
        if m.get(key):
            lines.append("  %-11s %s" % (key + ":", " ".join("%s=%s" % kv for kv in m[key].items())))
    if m["series"]:
        lines.append("  series:     %d patches (%s)" % (len(m["series"]), ", ".join(short_patch_name(s["file"]) for s in m["series"])))
    if m.get("migrated_from"):
        lines.append("  migrated from: %s" % " ".join(m["migrated_from"]))
    if m.get("note"):
        lines.append("  note:       %s" % m["note"])
    for f in m["files"]:
        lines.append("  file:       %s (%d bytes)" % (f, os.path.getsize(record.file(f))))
    return "\n".join(lines)


def find(root, spec, lab_root=LAB_ROOT):
    """A record named by its directory, or by BASE/KIND/ID."""
    for path in (spec, os.path.join(root, spec), os.path.join(lab_root, spec)):
        if os.path.isfile(os.path.join(path, "meta.json")):
            return Record(os.path.abspath(path), read_meta(path))
    raise Error("%s: no such record (BASE/KIND/ID, or its directory; readout.py records list)" % spec)


def main(argv, prog):
    ap = cli.parser(prog, __doc__)
    sub = ap.add_subparsers(dest="verb", required=True)
    w = sub.add_parser("write", help="a new record of a tool's outputs (tools only)")
    w.add_argument("--kind", required=True, help="the tool: " + ", ".join(KINDS))
    w.add_argument("--base", help="the base measured (default: $BASE, else config/default-base; all: the lab)")
    w.add_argument("--name", required=True, help="a short name, the end of the record's id")
    w.add_argument("--what", required=True, help="one line: what was measured")
    w.add_argument("--command", required=True, help="the exact command that measured")
    w.add_argument("--clock", required=True, help="comma-separated: " + ", ".join(CLOCKS))
    w.add_argument("--status", type=int, help="the command's exit status")
    w.add_argument("--variant", action="append", metavar="NAME=REV", help="a kernel measured and its commit")
    w.add_argument("--param", action="append", metavar="KEY=VALUE", help="a setting of the tool")
    w.add_argument("files", nargs="+", metavar="[DEST=]FILE", help="the data (a directory is copied whole)")
    ls = sub.add_parser("list", help="the records, oldest first")
    ls.add_argument("--base")
    ls.add_argument("--kind")
    s = sub.add_parser("show", help="one record")
    s.add_argument("record", metavar="RECORD")
    la = sub.add_parser("latest", help="the newest record's directory")
    la.add_argument("--base", required=True)
    la.add_argument("--kind", required=True)
    la.add_argument("--name")
    fl = sub.add_parser("fields", help="the lab's fields of a record to be written elsewhere, as JSON")
    fl.add_argument("--kind", required=True, help="the tool: " + ", ".join(KINDS))
    fl.add_argument("--base", required=True, help="the base measured (all: the lab)")
    c = sub.add_parser("check", help="the schema check")
    c.add_argument("records", nargs="*", metavar="RECORD")
    sub.add_parser("supersede", help="mark every record that a newer one of the same name and command replaces")
    k = sub.add_parser("ktap", help="scripts/check.sh's output as a CI record's summary.json")
    k.add_argument("log", metavar="LOG")
    k.add_argument("--seconds", type=int, help="how long the run took")
    k.add_argument("--cache", choices=("cold", "warm"), help="whether the lab cache held a tree when it started")
    args = ap.parse_args(argv)
    root = records_root()
    if args.verb == "write":
        files = [(f.split("=", 1)[0], f.split("=", 1)[1]) if "=" in f else (os.path.basename(f.rstrip("/")), f)
                 for f in args.files]
        path = write(args.kind, args.name, args.what, args.command, args.clock, files, base=args.base,
                     status=args.status, variants=pairs(args.variant, "--variant"),
                     params=pairs(args.param, "--param"))
        print(os.path.relpath(path, LAB_ROOT) if path.startswith(LAB_ROOT + os.sep) else path)
    elif args.verb == "list":
        for r in load(root, args.base, args.kind):
            if args.base and r.base != args.base:
                continue
            print("%s/%s/%s  %s  %s  %s" % (r.base, r.kind, r.id, ",".join(r.meta["clock"]),
                                          r.meta["lab_commit"][:12], r.meta["what"]))
    elif args.verb == "show":
        print(show(find(root, args.record)))
    elif args.verb == "latest":
        found = [r for r in load(root, args.base, args.kind, args.name) if r.base == args.base]
        if not found:
            raise Error("no %s record of %s%s in %s" % (args.kind, args.base,
                                                        " named " + args.name if args.name else "", root))
        print(found[-1].path)
    elif args.verb == "supersede":
        for r in mark_superseded(root):
            print("%s/%s/%s  superseded by %s" % (r.base, r.kind, r.id, r.superseded_by))
    elif args.verb == "fields":
        print(json.dumps(lab_fields(args.kind, args.base), indent=1, ensure_ascii=False))
    elif args.verb == "ktap":
        with open(args.log, encoding="utf-8", errors="replace") as f:
            summary = ktap_summary(f.read())
        summary.update({k: v for k, v in (("seconds", args.seconds), ("cache", args.cache)) if v is not None})
        print(json.dumps(summary, indent=1, sort_keys=True))
    elif args.verb == "check":
        paths = [find(root, r).path for r in args.records] if args.records else record_dirs(root)
        bases, commits = lab_bases(), git_commits(LAB_ROOT)
        problems = [p for path in paths for p in check_record(path, LAB_ROOT, bases, commits)]
        for p in problems:
            print(p)
        print("%d records, %d problem(s)" % (len(paths), len(problems)), file=sys.stderr)
        return 1 if problems else 0
    return 0
