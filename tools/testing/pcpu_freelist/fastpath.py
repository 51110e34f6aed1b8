#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The straight-line path of a function in an object: its static instruction count.

usage: fastpath.py OBJECT FUNCTION[@ADDR,...]...

Reads `objdump -d --no-show-raw-insn OBJECT` and prints, for each FUNCTION,
the instructions from its entry to its first return that fall through every
conditional branch but those at the ADDRs given (hexadecimal, as objdump
prints them: these are taken), and follow unconditional jumps, a tail call
into another function of OBJECT included; then their count, "FUNCTION: N
instructions to ret". The fast path is the one where every lock is taken at
once and the own head holds a node; the listing shows it, branch by branch,
for a reader to check. A call on the path counts as one instruction. Exits 1
when a FUNCTION is missing, or its path reaches no ret.
"""
import re
import subprocess
import sys

FUNC = re.compile(r"^[0-9a-f]+ <(.+)>:$")
INSN = re.compile(r"^\s*([0-9a-f]+):\s+(\S+)\s*(.*)$")
JUMP = re.compile(r"^([0-9a-f]+) <([^>+]+)(\+0x[0-9a-f]+)?>")


def functions(text):
    """objdump -d output -> {name: [(address, mnemonic, operands)]}"""
    out, cur = {}, None
    for line in text.splitlines():
        m = FUNC.match(line)
        if m:
            cur = out.setdefault(m.group(1), [])
            continue
        m = INSN.match(line)
        if m and cur is not None:
            cur.append((int(m.group(1), 16), m.group(2), m.group(3).strip()))
    return out


def straight(funcs, name, take=()):
    """The path from NAME's entry to the first ret: (path, found_ret)."""
    insns, path, i, seen = funcs[name], [], 0, set()
    while 0 <= i < len(insns) and (name, i) not in seen:
        seen.add((name, i))
        a, op, args = insns[i]
        path.append(insns[i])
        if op.startswith("ret"):
            return path, True
        m = JUMP.match(args)
        if op.startswith("j") and m and (op == "jmp" or a in take):
            target, to, offset = int(m.group(1), 16), m.group(2), m.group(3)
            if to != name and not offset and to in funcs:
                name, insns, i = to, funcs[to], 0       # a tail call
                continue
            where = [k for k, (b, _, _) in enumerate(insns) if b == target]
            if to != name or not where:
                return path, False
            i = where[0]
            continue
        if op == "jmp":
            return path, False
        i += 1
    return path, False


def main(argv):
    if len(argv) < 2:
        sys.exit("usage: fastpath.py OBJECT FUNCTION...")
    p = subprocess.run(["objdump", "-d", "--no-show-raw-insn", argv[0]],
                       capture_output=True, text=True)
    if p.returncode:
        sys.exit(f"fastpath.py: objdump {argv[0]}: {p.stderr.strip()}")
    funcs = functions(p.stdout)
    rc = 0
    for arg in argv[1:]:
        name, _, takes = arg.partition("@")
        try:
            take = {int(t, 16) for t in takes.split(",") if t}
        except ValueError:
            sys.exit(f"fastpath.py: {arg}: expected FUNCTION[@ADDR,...], ADDRs in hexadecimal")
        if name not in funcs:
            print(f"fastpath.py: {argv[0]}: no function {name}", file=sys.stderr)
            rc = 1
            continue
        path, ok = straight(funcs, name, take)
        print(f"{arg}:")
        for a, op, args in path:
            print(f"  {a:6x}:  {op:8} {args}")
        if ok:
            print(f"{name}: {len(path)} instructions to ret")
        else:
            print(f"{name}: no ret on the path ({len(path)} instructions)")
            rc = 1
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
