"""The splats in a VM run's kernel messages, as make check-debug and make nmi count them.

A splat is a kernel message ("[ secs] ...", from the console or from a `grep -n` of dmesg) that
starts a KCSAN report, a lockdep report, a BUG or a WARN (SPLAT_RE); a known one contains an entry
of config/<base>/known-splats. The one definition of both: the shell asks here (scripts/lib/splats.sh's
judge_splats and splats_guest_tail, for scripts/measure.sh -J splats: make check-debug, make nmi),
and so does matrix.py for check-debug's records.

    scripts/readout.py judge KNOWN LOG...   one run's logs: "SPLATS UNKNOWN" on stdout, and each
                                            unknown splat on stderr as "unknown splat: LINE"
    scripts/readout.py judge --pattern      SPLAT_RE, as grep -E reads it (the guest greps its dmesg)
"""
import re
import sys

from . import cli

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


def read(path):
    """The text of the file at path ("" when there is none, as for a base without known-splats)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except FileNotFoundError:
        return ""


def main(argv, prog):
    ap = cli.parser(prog, __doc__)
    ap.add_argument("--pattern", action="store_true", help="print SPLAT_RE (an extended regular expression) and stop")
    ap.add_argument("known", nargs="?", metavar="KNOWN", help="the base's list of known splats (config/<base>/known-splats)")
    ap.add_argument("logs", nargs="*", metavar="LOG", help="the run's logs: its output, the kernel's messages")
    args = ap.parse_args(argv)
    if args.pattern:
        print(SPLAT_RE.pattern)
        return 0
    if args.known is None:
        ap.error("KNOWN and LOG... (or --pattern)")
    splats = sorted({s for log in args.logs for s in log_splats(read(log))})
    unknown = unknown_splats(splats, read(args.known))
    for s in unknown:
        print("unknown splat: " + s, file=sys.stderr)
    print(len(splats), len(unknown))
    return 0
