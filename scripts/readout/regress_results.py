"""Results of the BPF selftests runs of scripts/regress.sh.

  readout.py regress-results plan ALL DENYLIST ALLOW TODO DENIED
      the test_progs tests to run, and those the DENYLIST names (see plan())
  readout.py regress-results parse SUITE OUTPUT DENYLIST WALL [CONSOLE] > SUITE.json
      one suite's output (regress-guest.sh markers and the suite's own lines, with the host's
      `lab-regress: lost NAME WHY` lines for a VM that died) to one record per test and subtest;
      the kernel's splats on CONSOLE, each with the test it came in
  readout.py regress-results summary LABEL=DIR...
      pass / fail / skip counts and wall time per suite, a Markdown table
  readout.py regress-results diff BASE-DIR SERIES-DIR
      tests that pass (or skip) on the base and do not pass on the series; exit 1 if any, naming them
  readout.py regress-results times BASE.json SERIES.json [PREFIX,...]...
      each whole test's time in SERIES.json over its time in BASE.json (tests OK in both and not
      flaky, 5 s or more in the base): median and quartiles over all of them, then over each group of name
      prefixes; runs of one kernel on two hosts give the hosts' difference
  readout.py regress-results record DOC LABEL=DIR...
      each side's results (its *.json and about) copied to DOC/LABEL, for make regress RECORD=1,
      through DOC/LABEL.new: a side that is DOC/LABEL already (regress.sh -B of the recorded base)
      is read before it is replaced
  readout.py regress-results ran SUITE.json NAME [META]
      "RC SECS" of NAME, a suite run whole, as SUITE.json holds it, and the time limit it ran
      under when META (its record's meta.json) has it: the whole_limit parameter, else 4 x limit
  readout.py regress-results marks QUESTION OUTPUT [NAME]
      what regress.sh's resume loop asks of a suite's output (its lab-regress: markers, read here
      only): finished (the tests that ended or were lost, sorted, one a line), failed (of those,
      the ones that ended with a non-zero status or were lost), started (the last test started,
      if any), end NAME ("RC SECS" of NAME's last end marker, if any), and, as the exit status (0: yes, 1: no): ended NAME (NAME has its end marker), done
      (the guest's run got to its end), retried (the failed tests ran again)

On bases whose test_progs has -J (--json-summary: 6.4 and later, so 6.12 and 7.3, not 6.1),
regress-guest.sh prints each test_progs run's JSON summary after its end marker,
  lab-regress: json NAME {"success": .., "skipped": .., "failed": .., "results": [...]}
and the test's result and its failed subtests (with the first lines of their logs) are read from
it rather than from the text; the summary lists failed tests only, so the text still gives the
subtests that passed or skipped. Without the JSON line (6.1, or a run that never finished) the
text alone counts.

A result is OK, SKIP (with "flaky" if it failed first and passed when run again), FAIL, TIMEOUT
(the test's time limit), CRASH (the kernel died in it, or after its end before the next test
started), HANG (the guest went silent in it) or DENIED
(listed in the base's DENYLIST: not run).
"""
import functools
import json
import os
import re
import shutil
import statistics
import sys

from . import cli

BAD = ("FAIL", "TIMEOUT", "CRASH", "HANG")
# What starts a splat in the kernel log: BPF CI's SPLAT list, and lockdep's and KCSAN's reports.
SPLAT = re.compile(r"\b(BUG|WARNING|UBSAN|Oops)[: ]|watchdog: .*lockup|rcu: INFO: .*stall|"
                   r"INFO: task .* blocked|possible (recursive|circular) locking|"
                   r"inconsistent lock state|Kernel panic")
KMSG = re.compile(r"^\[\s*\d+\.\d+\]\s*")
MARK = re.compile(r"^lab-regress: (start|end|lost) (\S+)(?: (.*))?$")
RUN_MARK = re.compile(r"^lab-regress: (done|retried)$")
JSON_MARK = re.compile(r"^lab-regress: json (\S+) (\{.*\})$")
# how much of a failed test's log a record keeps
LOG_CHARS = 300
# test_progs: "#86/1    htab_update/reenter_update:OK", "#86      htab_update:OK"; split on the
# last ':' (subtest names may hold ':' and spaces)
PROGS = re.compile(r"^#(\d+)(?:/(\d+))?\s+(.*):(OK|SKIP|FAIL)$")
# test_verifier: "#12/p DESCR " and then "OK", "N cases OK", "OK (NOTE: ...)", "SKIP (...)" or
# "FAIL..." (the description may hold these words too); named "12/p DESCR", by index: the series
# does not touch verifier/, and descriptions repeat
VERIFIER = re.compile(r"^#(\d+)/([pu]) (.*?) ((?:\(run \d+/\d+\) )*(?:\d+ cases )?OK(?: \(NOTE[^)]*\))?"
                      r"|SKIP(?: \(.*\))?|(?:\(run \d+/\d+\) )*FAIL.*)$")
# test_maps' map_tests: "test_task_storage_map_stress_lookup:PASS", "... SKIP (...)"
MAPS = re.compile(r"^(test_\w+):(PASS|FAIL)|^(\w+) SKIP\b")


@functools.lru_cache(maxsize=None)
def glob_regex(pattern):
    """The compiled regex of a glob: make matrix matches every test of a record against each
    allowlist entry (hundreds of thousands of calls), so each pattern is compiled once."""
    return re.compile(".*".join(map(re.escape, pattern.split("*"))), re.S)


def glob(name, pattern):
    """test_progs' glob_match(): '*' matches any run of characters, and every other character
    itself ('?' and '[' too: subtest names hold them)."""
    return glob_regex(pattern).fullmatch(name) is not None


def denied_by(name, deny):
    """Whether the DENYLIST entries DENY (test or test/subtest globs) name NAME (a test, or
    test/subtest): an entry for a test covers its subtests."""
    test = name.split("/")[0]
    return any(glob(name, d) or ("/" not in d and glob(test, d))
               for d in deny)


def plan(all_file, deny_file, allow, todo_file, denied_file):
    """Split test_progs -l's tests (ALL) into those to run (TODO: a line per test, its name and what
    to pass to -a: the test, or the -a entries that select some of its subtests) and those the
    DENYLIST names whole (DENIED: not started)."""
    with open(all_file) as f:
        names = f.read().split()
    with open(deny_file) as f:
        deny = f.read().split()
    allow = [a for a in allow.split(",") if a]
    with open(todo_file, "w") as run, open(denied_file, "w") as denied:
        for n in names:
            if denied_by(n, deny):
                print(n, file=denied)
                continue
            # A whole-test entry (a name or a glob) selects just this test; subtest entries
            # whose test part matches it are passed on.
            whole = any("/" not in a and glob(n, a) for a in allow)
            sel = [a for a in allow if "/" in a and glob(n, a.split("/")[0])]
            print(n, n if whole or not sel else ",".join(sel), file=run)


def splats(console):
    """(test, first line) of each splat in the kernel log, addresses and numbers blanked."""
    found, test = [], None
    with open(console, errors="replace") as f:
        for line in f:
            line = KMSG.sub("", line.rstrip("\r\n"))
            m = MARK.match(line)
            if m:
                test = m.group(2) if m.group(1) == "start" else None
            elif SPLAT.search(line):
                sig = re.sub(r"0x[0-9a-f]+|\b\d+\b", "N", line)
                found.append({"test": test, "splat": sig})
    return found


def log_excerpt(message):
    """The first LOG_CHARS characters of a test's log, on one line."""
    text = " | ".join(line.strip() for line in message.splitlines() if line.strip())
    return text[:LOG_CHARS] + ("..." if len(text) > LOG_CHARS else "")


def put_json_summary(put, name, text, rc):
    """Record test_progs' JSON summary of the run of test NAME (its one test): OK when it
    succeeded, SKIP when it only skipped, FAIL with its failed subtests otherwise. A run that
    exited with RC other than 0 stays failed whatever its summary says."""
    try:
        j = json.loads(text)
        counts = {k: int(j[k]) for k in ("success", "skipped", "failed")}
        results = j["results"]
    except (ValueError, KeyError, TypeError) as e:
        raise cli.Error(f"{name}: unreadable test_progs JSON summary: {e}")
    for r in results:
        extra = {"log": log_excerpt(r["message"])} if r.get("message") else {}
        put(r["name"], "FAIL" if r["failed"] else "OK", **extra)
        for sub in r.get("subtests", []):
            extra = {"log": log_excerpt(sub["message"])} if sub.get("message") else {}
            put(f"{r['name']}/{sub['name']}", "FAIL" if sub["failed"] else "OK", **extra)
    if rc != 0:
        return
    if not any(r["name"] == name for r in results):
        if counts["failed"]:
            put(name, "FAIL")
        elif counts["success"]:
            put(name, "OK")
        elif counts["skipped"]:
            put(name, "SKIP")


def parse(suite, output, denied_file, wall, console=None):
    tests, order, last_rc = {}, [], {}

    def put(name, result, **extra):
        if name not in tests:
            order.append(name)
        elif tests[name]["result"] in BAD and result in ("OK", "SKIP"):
            extra["flaky"] = True  # failed, then passed when run again (regress.sh retries)
        tests[name] = dict(tests.get(name, {}), name=name, result=result, **extra)

    if console and not os.path.exists(console):
        # the runs' kernel log holds their splats: results without it are not results
        raise cli.Error(f"{output}: its console {console} is missing, "
                         "so the splats of its runs are unknown")
    with open(denied_file) as f:
        deny = f.read().split()
    with open(output, errors="replace") as f:
        lines = [line.rstrip("\r\n") for line in f]
    for line in lines:
        m = JSON_MARK.match(line)
        if m:
            put_json_summary(put, m.group(1), m.group(2), last_rc.get(m.group(1), 0))
            continue
        m = MARK.match(line)
        if m:
            what, name, rest = m.groups()
            if what == "end":
                kv = dict(x.split("=", 1) for x in (rest or "").split())
                rc, secs = end_rc(rest), int(kv.get("secs", 0))
                last_rc[name] = rc
                prev = tests.get(name, {}).get("result")
                if rc == 137:
                    put(name, "TIMEOUT", secs=secs, rc=rc)
                # a suite run whole (all but test_progs*, as regress.sh runs them): its exit status
                elif not suite.startswith("test_progs") or prev is None:
                    put(name, "OK" if rc == 0 else "FAIL", secs=secs, rc=rc)
                elif rc != 0 and prev not in BAD:
                    put(name, "FAIL", secs=secs, rc=rc)  # non-zero exit, no failed subtest
                else:
                    put(name, prev, secs=secs, rc=rc)
            elif what == "lost":
                put(name, (rest or "CRASH").split()[0])
            continue
        if suite.startswith("test_progs"):
            m = PROGS.match(line)
            if m:
                put(m.group(3), m.group(4))
        elif suite == "test_verifier":
            m = VERIFIER.match(line)
            if m:
                result = m.group(4).split()[-1] if "OK" in m.group(4).split() else m.group(4)
                put(f"{m.group(1)}/{m.group(2)} {m.group(3)}",
                    "FAIL" if "FAIL" in result else "SKIP" if result.startswith("SKIP") else "OK")
        elif suite == "test_maps":
            m = MAPS.match(line)
            if m:
                if m.group(1):
                    put("test_maps/" + m.group(1), "OK" if m.group(2) == "PASS" else "FAIL")
                else:
                    put("test_maps/" + m.group(3), "SKIP")
    # The DENYLIST (test or test/subtest globs) as it is now, also over results of earlier runs:
    # a denied test is DENIED without its subtests, a denied subtest DENIED.
    # A test that failed, in a run before its subtest entries, only in subtests the DENYLIST now
    # names counts as test_progs -d would have reported it: OK, with a note.
    def denied(name):
        return denied_by(name, deny)
    failed_in_denied = set()
    for name in list(order):
        if denied(name):
            if "/" in name and denied(name.split("/")[0]):
                order.remove(name)
                del tests[name]
            else:
                if "/" in name and tests[name]["result"] in BAD:
                    failed_in_denied.add(name.split("/")[0])
                tests[name] = {"name": name, "result": "DENIED"}
    for test in failed_in_denied:
        if tests.get(test, {}).get("result") == "FAIL" and not any(
                n.startswith(test + "/") and tests[n]["result"] in BAD for n in order):
            tests[test] = dict(tests[test], result="OK", note="failed only in subtests the DENYLIST names")
    for name in deny:
        if name not in tests and not any(c in name for c in "*?["):
            put(name, "DENIED")
    # One test a line: the records are kept in git (records/<base>/regress/) and diffed there.
    found = [x for x in (splats(console) if console else []) if not (x["test"] and denied(x["test"]))]
    print('{"suite": %s, "wall": %d, "splats": [' % (json.dumps(suite), int(wall)))
    print(",\n".join(json.dumps(x) for x in found))
    print('], "tests": [')
    print(",\n".join(json.dumps(tests[n]) for n in order))
    print("]}")


def load(kdir):
    suites = {}
    for name in sorted(os.listdir(kdir)):
        if name.endswith(".json"):
            with open(os.path.join(kdir, name)) as f:
                d = json.load(f)
            suites[d["suite"]] = d
    return suites


def counts(d):
    c = {"tests": 0, "subtests": 0, "OK": 0, "SKIP": 0, "bad": 0, "DENIED": 0}
    for t in d["tests"]:
        c["subtests" if "/" in t["name"] else "tests"] += 1
        r = t["result"]
        c["bad" if r in BAD else r] += 1
    return c


def summary(args):
    print("| kernel | suite | tests | subtests | OK | SKIP | FAIL etc. | DENIED | wall |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    dirs = [a.split("=", 1) for a in args]
    for label, kdir in dirs:
        for suite, d in load(kdir).items():
            c = counts(d)
            w = d["wall"]
            print(f"| {label} | {suite} | {c['tests']} | {c['subtests']} | {c['OK']} | {c['SKIP']} "
                  f"| {c['bad']} | {c['DENIED']} | {w // 60} min {w % 60:02d} s |")
    for label, kdir in dirs:
        for suite, d in load(kdir).items():
            for t in d["tests"]:
                if t["result"] in BAD:
                    print(f"{label}: {suite}: {t['name']}: {t['result']}")
                elif t.get("flaky"):
                    print(f"{label}: {suite}: {t['name']}: failed, then {t['result']} when run again (flaky)")
            for x in d.get("splats", []):
                print(f"{label}: {suite}: splat in {x['test']}: {x['splat']}")


def allowed(suite, name, allow):
    """Whether test_progs -a ALLOW runs NAME (a test, or test/subtest)."""
    if not allow or not suite.startswith("test_progs"):
        return True
    test, _, sub = name.partition("/")
    for entry in allow:
        etest, _, esub = entry.partition("/")
        if glob(test, etest) and (not esub or not sub or glob(sub, esub)):
            return True
    return False


def compare(base_dir, series_dir, allow=""):
    """What the series changes against the base: (broken, fixed, unlisted, suites), the lines of
    the tests that pass (or skip) on the base and not on the series, of those that fail on the base
    and pass on the series, of the base's failures, and the suites both ran."""
    base, series = load(base_dir), load(series_dir)
    allow = [a for a in allow.split(",") if a]
    for suite, d in base.items():
        d["tests"] = [t for t in d["tests"] if allowed(suite, t["name"], allow)]
    broken, fixed, unlisted = [], [], []
    for suite, b in base.items():
        unlisted += [f"{suite}: {t['name']}: {t['result']}" for t in b["tests"] if t["result"] in BAD]
        if suite not in series:
            continue
        s = {t["name"]: t["result"] for t in series[suite]["tests"]}
        for t in b["tests"]:
            got = s.get(t["name"], "MISSING")
            # The DENYLIST in force when the series ran names it: not run, so not judged (a base
            # recorded earlier, -B, may have run it before the list named it).
            if got == "DENIED":
                continue
            if t["result"] in ("OK", "SKIP") and got not in ("OK", "SKIP"):
                broken.append(f"{suite}: {t['name']}: base {t['result']}, series {got}")
            elif t["result"] in BAD and got == "OK":
                fixed.append(f"{suite}: {t['name']}: base {t['result']}, series OK")
    for suite, d in series.items():
        known = {(x["test"], x["splat"]) for x in base.get(suite, {}).get("splats", [])}
        for x in d.get("splats", []):
            if (x["test"], x["splat"]) not in known:
                broken.append(f"{suite}: {x['test']}: kernel splat not seen on the base: {x['splat']}")
    return broken, fixed, unlisted, sorted(set(base) & set(series))


def diff(base_dir, series_dir, allow=""):
    broken, fixed, unlisted, common = compare(base_dir, series_dir, allow)
    for line in fixed:
        print(f"note: fails on the base, passes on the series: {line}")
    for line in broken:
        print(f"REGRESSION: {line}")
    for line in unlisted:
        print(f"base failure not in the DENYLIST: {line}")
    print(f"{len(broken)} tests pass on the base and not on the series ({', '.join(common)})")
    if unlisted:
        print(f"{len(unlisted)} base failures are not in the base's DENYLIST (name each, with its reason)")
    return 1 if broken or unlisted else 0


def end_rc(rest):
    """The rc=N of an end marker's rest ("rc=0 secs=3"); 1 without one."""
    kv = dict(x.split("=", 1) for x in (rest or "").split() if "=" in x)
    return int(kv.get("rc", 1))


def marks(question, output, name=None):
    """The answer to one of regress.sh's questions about OUTPUT's markers (see marks in the usage):
    a list of names, or a bool."""
    with open(output, errors="replace") as f:
        lines = [line.rstrip("\r\n") for line in f]
    found = [m.groups() for m in map(MARK.match, lines) if m]
    runs = {m.group(1) for m in map(RUN_MARK.match, lines) if m}
    if question == "finished":
        return sorted({n for what, n, _ in found if what in ("end", "lost")})
    if question == "failed":
        return sorted({n for what, n, rest in found if what == "lost" or (what == "end" and end_rc(rest) != 0)})
    if question == "started":
        return [n for what, n, _ in found if what == "start"][-1:]
    ends = [rest for what, n, rest in found if what == "end" and n == name and (rest or "").startswith("rc=")]
    if question == "ended":
        return bool(ends)
    if question == "end":
        if not ends:
            return []
        kv = dict(x.split("=", 1) for x in ends[-1].split() if "=" in x)
        return [f"{end_rc(ends[-1])} {int(kv.get('secs', 0))}"]
    return question in runs


def record(doc, args):
    """Copy each LABEL=DIR's results to DOC/LABEL, keeping only what the repository holds."""
    for label, kdir in (a.split("=", 1) for a in args):
        if not re.fullmatch(r"[A-Za-z0-9_-]+", label):
            raise cli.Error(f"record: bad label '{label}' (letters, digits, _ and -)")
        dest = os.path.join(doc, label)
        staged = dest + ".new"
        shutil.rmtree(staged, ignore_errors=True)
        os.makedirs(staged)
        for name in sorted(os.listdir(kdir)):
            if name.endswith(".json") or name == "about":
                shutil.copyfile(os.path.join(kdir, name), os.path.join(staged, name))
        shutil.rmtree(dest, ignore_errors=True)
        os.rename(staged, dest)


def times(base_json, series_json, groups=(), least=5):
    """The time each test took in SERIES_JSON over the time it took in BASE_JSON, for the tests OK
    in both (not flaky: a retried test's time is its second run's) that took LEAST seconds or more
    in the base: a markdown table, all such tests, then one row per group (comma-separated name
    prefixes). Times are whole seconds (regress-guest.sh's secs=), so a ratio of a 5 s test moves
    in steps of 0.2. Read across hosts, the rows of tests that a series does not touch are the
    hosts' difference, under the load each run had."""
    def secs(path):
        with open(path) as f:
            return {t["name"]: t["secs"] for t in json.load(f)["tests"]
                    if t.get("result") == "OK" and not t.get("flaky") and t.get("secs") is not None}
    base, series = secs(base_json), secs(series_json)
    ratio = {n: series[n] / s for n, s in base.items() if s >= least and n in series and "/" not in n}
    out = [f"| tests OK on both, {least} s or more in the base | n | median, series/base | quartiles |",
           "|---|---|---|---|"]
    for label in ("all", *groups):
        prefixes = None if label == "all" else tuple(label.split(","))
        r = sorted(v for n, v in ratio.items() if prefixes is None or n.startswith(prefixes))
        if len(r) < 2:
            raise cli.Error(f"times: {len(r)} tests in '{label}', too few for quartiles")
        q = statistics.quantiles(r, n=4, method="inclusive")    # within the data, also for 2
        name = "all" if prefixes is None else " ".join(p + "*" for p in prefixes)
        out.append(f"| {name} | {len(r)} | {statistics.median(r):.2f} | {q[0]:.2f}-{q[2]:.2f} |")
    return "\n".join(out) + "\n"


def ran(suite_json, name, meta=None):
    """RC SECS [LIMIT] of NAME in SUITE_JSON (see the module's docstring); None if it has none."""
    with open(suite_json) as f:
        test = next((t for t in json.load(f)["tests"] if t["name"] == name), None)
    if test is None or test.get("secs") is None:
        return None
    words = [str(test.get("rc", 0)), str(test["secs"])]
    try:
        with open(meta) as f:
            params = json.load(f).get("params") or {}
    except (TypeError, OSError):
        params = {}
    if "whole_limit" in params:
        words.append(str(params["whole_limit"]))
    elif "limit" in params:
        words.append(str(4 * int(params["limit"])))
    return " ".join(words)


def main(argv, prog):
    argv = [prog, *argv]
    if len(argv) == 7 and argv[1] == "plan":
        plan(*argv[2:])
        return 0
    if len(argv) in (6, 7) and argv[1] == "parse":
        parse(*argv[2:])
        return 0
    if len(argv) >= 3 and argv[1] == "summary":
        summary(argv[2:])
        return 0
    if len(argv) in (4, 5) and argv[1] == "diff":
        return diff(*argv[2:])
    if len(argv) in (4, 5) and argv[1] == "marks" and argv[2] in ("finished", "failed", "started", "ended", "end", "done", "retried") \
            and (len(argv) == 5) == (argv[2] in ("ended", "end")):
        answer = marks(*argv[2:])
        if isinstance(answer, bool):
            return 0 if answer else 1
        print("".join(n + "\n" for n in answer), end="")
        return 0
    if len(argv) in (4, 5) and argv[1] == "ran":
        answer = ran(*argv[2:])
        if answer is None:
            return 1
        print(answer)
        return 0
    if len(argv) >= 4 and argv[1] == "times":
        print(times(argv[2], argv[3], argv[4:]), end="")
        return 0
    if len(argv) >= 4 and argv[1] == "record" and all("=" in a for a in argv[3:]):
        record(argv[2], argv[3:])
        return 0
    return cli.usage_error(prog, "expected plan, parse, summary, diff, times, ran, record or marks, with its arguments")
