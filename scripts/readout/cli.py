"""scripts/readout.py SUBCOMMAND ARG...: the lab's one Python command, which the shell calls
(python3 -m readout SUBCOMMAND ..., from scripts/, is the same). Each subcommand is a module of
this package, whose main(argv, prog) takes the arguments after the subcommand's name; its usage:
scripts/readout.py SUBCOMMAND -h. This module holds what every subcommand shares: the dispatch,
an argparse whose error is one line, and the tail that turns an error of the package into one line
and exit status 1."""
import argparse
import importlib
import sys

# subcommand: (module, what it does)
COMMANDS = {
    "keys": ("patch_keys", "the keys of patches, or of a tree's commits (one a line)"),
    "judge": ("splats", "a VM run's splats against the base's known-splats"),
}


class Error(Exception):
    """An error of the package that the user reads as one line (exit status 1)."""


class OneLineParser(argparse.ArgumentParser):
    """argparse, whose error is one line (and exit status 2), as every lab command's."""

    def error(self, message):
        self.exit(2, "%s: error: %s (%s -h)\n" % (self.prog, message, self.prog))


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
    argv = sys.argv[1:] if argv is None else list(argv)
    if not argv or argv[0] in ("-h", "--help"):
        (sys.stdout if argv else sys.stderr).write(usage())
        return 0 if argv else 2
    name, rest = argv[0], argv[1:]
    if name not in COMMANDS:
        print("readout.py: error: no subcommand '%s' (readout.py -h)" % name, file=sys.stderr)
        return 2
    prog = "readout.py " + name
    module = importlib.import_module("readout." + COMMANDS[name][0])
    try:
        return module.main(rest, prog) or 0
    except Error as e:
        print("%s: error: %s" % (prog, e), file=sys.stderr)
        return 1
    except BrokenPipeError:
        # a reader that stopped early (| head): not an error of ours
        sys.stderr.close()
        return 0
