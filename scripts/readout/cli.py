"""scripts/readout.py SUBCOMMAND ARG...: the lab's one Python command, which the shell calls
(python3 -m readout SUBCOMMAND ..., from scripts/, is the same). Each subcommand is a module of
this package, whose main(argv, prog) takes the arguments after the subcommand's name; its usage,
the module's docstring: scripts/readout.py SUBCOMMAND -h. This module holds what every subcommand
shares: the dispatch, -h, the one line of a bad command line (an argparse whose error is one line,
or usage_error), and the tail that turns an error of the package into one line and exit status 1."""
import argparse
import importlib
import os
import sys

# subcommand: (module, what it does)
COMMANDS = {
    "benchout": ("benchout", "bench's output: its runs, rates, runs files and tables (make bench, compare, scaling)"),
    "records": ("records", "the records: write, list, show, latest, check, supersede, fields, ktap"),
    "matrix": ("matrix", "EVIDENCE.md from the records (make matrix)"),
    "findings": ("findings", "the findings' tables from the records (make findings)"),
    "stats": ("stats", "make compare's table of trials.csv: medians, Welch's test"),
    "spread": ("spread", "the spread of repeated trials in trials.csv files"),
    "race-spread": ("race_spread", "the freelist race's results, run by run"),
    "htab-mem-table": ("htab_mem_table", "htab-mem against upstream's: its lines and table"),
    "nmi-results": ("nmi_results", "make nmi's table of its runs"),
    "regress-results": ("regress_results", "make regress: plan, parse, summary, diff, record, marks"),
    "cover-letter": ("cover_letter", "fill a cover letter's placeholders (make series, make mbox)"),
    "keys": ("patch_keys", "the keys of patches, or of a tree's commits (one a line)"),
    "judge": ("splats", "a VM run's splats against the base's known-splats"),
}


# The old names of the subcommands (scripts/MODULE.py, once seven-line scripts of their own), kept
# as links to scripts/readout.py only while something outside its callers names them:
# Documentation/lab.md (until its rewrite). No script, test or harness calls one
# (unit/python_called_one_way). Called by such a name, main() runs its subcommand.
OLD_NAMES = {module + ".py": name for name, (module, _) in COMMANDS.items()}


class Error(Exception):
    """An error of the package that the user reads as one line (exit status 1)."""


class OneLineParser(argparse.ArgumentParser):
    """argparse, whose error is one line (and exit status 2), as every lab command's."""

    def error(self, message):
        self.exit(2, "%s: error: %s (%s -h)\n" % (self.prog, message, self.prog))


def usage_error(prog, message):
    """The one line of a subcommand that parses its own arguments, for a bad command line, as
    OneLineParser's; its exit status, 2."""
    print("%s: error: %s (%s -h)" % (prog, message, prog), file=sys.stderr)
    return 2


def parser(prog, doc, **kwargs):
    """A OneLineParser named prog, with the module's docstring doc as its description."""
    return OneLineParser(prog=prog, description=doc, formatter_class=argparse.RawDescriptionHelpFormatter,
                         **kwargs)


def usage():
    width = max(map(len, COMMANDS))
    return "usage: scripts/readout.py SUBCOMMAND ARG... (SUBCOMMAND -h: its usage)\n\n%s\n\nsubcommands:\n%s\n" % (
        __doc__.split("\n\n")[0], "\n".join("  %-*s  %s" % (width, name, what) for name, (_, what) in COMMANDS.items()))


def main(argv=None):
    """Run the subcommand argv[0] with the rest of argv; its exit status."""
    if argv is None:
        argv = sys.argv[1:]
        old = os.path.basename(sys.argv[0])
        if old in OLD_NAMES and os.path.islink(sys.argv[0]):
            argv = [OLD_NAMES[old], *argv]
    argv = list(argv)
    if not argv or argv[0] in ("-h", "--help"):
        (sys.stdout if argv else sys.stderr).write(usage())
        return 0 if argv else 2
    name, rest = argv[0], argv[1:]
    if name not in COMMANDS:
        print("readout.py: error: no subcommand '%s' (readout.py -h)" % name, file=sys.stderr)
        return 2
    prog = "readout.py " + name
    module = importlib.import_module("readout." + COMMANDS[name][0])
    if rest in (["-h"], ["--help"]):
        # every subcommand's usage is its module's docstring
        print(module.__doc__.strip())
        return 0
    try:
        return module.main(rest, prog) or 0
    except Error as e:
        print("%s: error: %s" % (prog, e), file=sys.stderr)
        return 1
    except BrokenPipeError:
        # a reader that stopped early (| head): not an error of ours
        sys.stderr.close()
        return 0
    except OSError as e:
        # a file that cannot be read or written: the subcommands leave it to this line (open()'s
        # filename is the path they were given)
        print("%s: error: %s: %s" % (prog, e.filename, e.strerror), file=sys.stderr)
        return 1
