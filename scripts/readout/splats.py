"""The splats in a VM run's kernel messages, as make check-debug and make nmi count them.

A splat is a kernel message ("[ secs] ...", from the console or from a `grep -n` of dmesg) that
starts a KCSAN report, a lockdep report, a BUG or a WARN (SPLAT_RE); a known one contains an entry
of config/<base>/known-splats. The shell has the same definitions in scripts/lib/guest.sh
(SPLAT_RE, log_splats, unknown_splats), which check-debug.sh and nmi-stackmap.sh use;
test_splats.py checks that both give the same lines on the records' logs.
"""
import re

SPLAT_RE = re.compile(r"BUG:|WARNING:|possible recursive locking|possible circular locking|"
                      r"inconsistent lock state|sleeping function called from invalid context|"
                      r"INFO: task .* blocked")
MESSAGE = re.compile(r"^\[ *[0-9]+\.[0-9]+\] ")
GREP_N = re.compile(r"^[0-9]+[:-]")


def log_splats(text):
    """The first lines of the splats in a log's text, each once, sorted."""
    lines = (GREP_N.sub("", line, count=1) for line in text.replace("\r", "").split("\n"))
    return sorted({line for line in lines if MESSAGE.match(line) and SPLAT_RE.search(line)})


def list_entries(text):
    """The entries of an upstream-format list (DENYLIST, known-splats): one a line, `#` comments
    and blank lines dropped."""
    entries = (line.split("#", 1)[0].strip() for line in text.split("\n"))
    return [e for e in entries if e]


def unknown_splats(splats, known):
    """Of splats, those that contain no entry of the list known (its text), in order."""
    entries = list_entries(known)
    return [s for s in splats if not any(e in s for e in entries)]
