"""The counts of tools/testing/nmi_stackmap in VM logs, as one markdown table (scripts/nmi-stackmap.sh).

  scripts/readout.py nmi-results LOG[=SPLATS,UNKNOWN]...

LOG: a VM run's output (NAME.log: the kernel's name in the table); SPLATS and UNKNOWN: the splats
the run's kernel log showed and how many of them config/<base>/known-splats does not name. Exits
1, naming the log, if a log holds no result of the tool.
"""
import os
import re

from . import cli

RUN = re.compile(r"^# ([0-9.]+) s: task on CPU (\d+) \((\d+) loops, (\d+) deletes\), "
                 r"sysrq 'l' from CPU (\d+), (\d+) NMIs$")
CALLS = re.compile(r"^# (nmi|task): (\d+) bpf_get_stackid\(\) \((\d+)/s\): (\d+) ok, (\d+) -ENOMEM, "
                   r"(\d+) other errors$")
KERNEL = re.compile(r"^# kernel: tainted (-?\d+) -> (-?\d+), debug_locks (-?\d+) -> (-?\d+)$")
RESULT = re.compile(r"^(not ok|ok) 1 nmi_stackmap: (.*)$")


class Error(cli.Error):
    pass


def parse(text):
    """The tool's counts in one run's output: a dict, or Error."""
    out = {}
    for line in text.replace("\r", "").splitlines():
        m = RUN.match(line)
        if m:
            out.update(seconds=float(m[1]), loops=int(m[3]), deletes=int(m[4]), nmis=int(m[6]))
        m = CALLS.match(line)
        if m:
            out[m[1]] = dict(calls=int(m[2]), rate=int(m[3]), ok=int(m[4]), nomem=int(m[5]), other=int(m[6]))
        m = KERNEL.match(line)
        if m:
            out["kernel"] = tuple(int(x) for x in m.groups())
        m = RESULT.match(line)
        if m:
            out["ok"] = m[1] == "ok"
    missing = [k for k in ("seconds", "nmi", "task", "kernel", "ok") if k not in out]
    if missing:
        raise Error("no %s line of nmi_stackmap" % ", ".join(missing))
    return out


def table(runs):
    """runs: [(name, counts, splats, unknown)]: the markdown table."""
    rows = ["| kernel | s | NMIs | in NMI: calls/s | ok | -ENOMEM (no node) | other | "
            "task: calls | ok | -ENOMEM | deletes | taint, lockdep | splats (unknown) | result |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---|"]
    for name, r, splats, unknown in runs:
        n, t, k = r["nmi"], r["task"], r["kernel"]
        checks = "%s, %s" % ("untainted" if k[0] == k[1] else "tainted %d -> %d" % k[:2],
                             "on" if k[2] == k[3] == 1 else "off" if k[3] == 0 and k[2] == 1 else
                             "none" if k[2] == k[3] == 0 else "%d -> %d" % k[2:])
        rows.append("| %s | %.1f | %d | %d | %d | %d | %d | %d | %d | %d | %d | %s | %s | %s |" % (
            name, r["seconds"], r["nmis"], n["rate"], n["ok"], n["nomem"], n["other"], t["calls"], t["ok"],
            t["nomem"], r["deletes"], checks, "-" if splats is None else "%d (%d)" % (splats, unknown),
            "ok" if r["ok"] else "not ok"))
    return "\n".join(rows)


def main(argv, prog):
    if not argv:
        return cli.usage_error(prog, "expected LOG[=SPLATS,UNKNOWN]...")
    runs = []
    for arg in argv:
        path, splats, unknown = arg, None, None
        m = re.match(r"^(.*)=(\d+),(\d+)$", arg)
        if m:
            path, splats, unknown = m[1], int(m[2]), int(m[3])
        try:
            with open(path, errors="replace") as f:
                runs.append((os.path.basename(path).rsplit(".", 1)[0], parse(f.read()), splats, unknown))
        except (OSError, Error) as e:
            raise Error("%s: %s" % (path, getattr(e, "strerror", None) or e)) from None
    print(table(runs))
    return 0
