#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The running kernel's delete and re-insert of one key in a preallocated hash map, in ns.

A churner of the storm scenarios (pcpu_freelist_mt storm:H) pops a node, holds it H pause loops
and pushes it back. In a kernel the same cycle is a map update that pops (alloc_htab_elem) and a
delete that pushes (free_htab_elem), with the rest of both operations in between. This measures
that cycle on the machine's own kernel, uncontended: a BPF_PROG_TYPE_SCHED_CLS program of K
pairs (update with BPF_NOEXIST, delete) of one key, run by BPF_PROG_TEST_RUN with a repeat count
on one pinned CPU, less an empty program's run. Only the bpf() system call: no libbpf, no
compiler. It loads a program and a map, which go away with the process; nothing else changes.

usage: htab_cycle.py [--pairs K] [--repeat N] [--rounds R] [--cpu C]
prints one line a round and the median: "ns per pair (update + delete)".
"""
import argparse
import ctypes
import os
import statistics
import struct
import sys

NR_BPF = 321  # x86_64
BPF_MAP_CREATE, BPF_PROG_LOAD, BPF_PROG_TEST_RUN = 0, 5, 10
BPF_MAP_TYPE_HASH, BPF_PROG_TYPE_SCHED_CLS = 1, 3
BPF_NOEXIST = 1
FN_MAP_UPDATE_ELEM, FN_MAP_DELETE_ELEM = 2, 3
R0, R1, R2, R3, R4, R10 = 0, 1, 2, 3, 4, 10

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long


def insn(code, dst=0, src=0, off=0, imm=0):
    return struct.pack("<BBhi", code, (src << 4) | dst, off, imm)


def mov64_imm(dst, imm):
    return insn(0xb7, dst, imm=imm)


def mov64_reg(dst, src):
    return insn(0xbf, dst, src)


def add64_imm(dst, imm):
    return insn(0x07, dst, imm=imm)


def st_mem(size_code, dst, off, imm):
    return insn(0x62 if size_code == "w" else 0x7a, dst, off=off, imm=imm)


def ld_map_fd(dst, fd):
    # BPF_LD | BPF_IMM | BPF_DW with src BPF_PSEUDO_MAP_FD: two instructions
    return insn(0x18, dst, 1, imm=fd) + insn(0)


def call(fn):
    return insn(0x85, imm=fn)


def exit_insn():
    return insn(0x95)


def program(map_fd, pairs):
    """K times: update(key 1, value 0, BPF_NOEXIST), delete(key 1); return 0."""
    p = st_mem("w", R10, -4, 1) + st_mem("dw", R10, -16, 0)
    for _ in range(pairs):
        p += ld_map_fd(R1, map_fd) + mov64_reg(R2, R10) + add64_imm(R2, -4)
        p += mov64_reg(R3, R10) + add64_imm(R3, -16) + mov64_imm(R4, BPF_NOEXIST)
        p += call(FN_MAP_UPDATE_ELEM)
        p += ld_map_fd(R1, map_fd) + mov64_reg(R2, R10) + add64_imm(R2, -4)
        p += call(FN_MAP_DELETE_ELEM)
    return p + mov64_imm(R0, 0) + exit_insn()


def bpf(cmd, attr):
    buf = ctypes.create_string_buffer(attr, 128)
    r = libc.syscall(NR_BPF, cmd, buf, 128)
    if r < 0:
        e = ctypes.get_errno()
        raise OSError(e, "bpf(%d): %s" % (cmd, os.strerror(e)))
    return r, buf.raw


def map_create():
    # a preallocated hash map: map_flags 0
    return bpf(BPF_MAP_CREATE, struct.pack("<IIIII", BPF_MAP_TYPE_HASH, 4, 8, 64, 0))[0]


def prog_load(insns):
    """Loads without a verifier log (a log of every instruction would not fit a long program);
    on a refusal, loads again with the log, to show why."""
    code = ctypes.create_string_buffer(insns, len(insns))
    lic = ctypes.create_string_buffer(b"GPL")
    log = ctypes.create_string_buffer(1 << 20)

    def load(level):
        attr = struct.pack("<IIQQIIQ", BPF_PROG_TYPE_SCHED_CLS, len(insns) // 8,
                           ctypes.addressof(code), ctypes.addressof(lic), level,
                           len(log) if level else 0, ctypes.addressof(log) if level else 0)
        return bpf(BPF_PROG_LOAD, attr)[0]

    try:
        return load(0)
    except OSError as e:
        try:
            load(1)
        except OSError:
            pass
        sys.exit("error: the kernel refused the program: %s\n%s" %
                 (e, log.value.decode(errors="replace")[-2000:]))


def test_run(fd, repeat):
    pkt = ctypes.create_string_buffer(64)  # an Ethernet header and more
    attr = struct.pack("<IIIIQQII", fd, 0, len(pkt), 0, ctypes.addressof(pkt), 0, repeat, 0)
    _, out = bpf(BPF_PROG_TEST_RUN, attr)
    retval, duration = struct.unpack_from("<I", out, 4)[0], struct.unpack_from("<I", out, 36)[0]
    if retval != 0:
        sys.exit("error: the program returned %d" % retval)
    return duration


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pairs", type=int, default=16, help="pairs per program run (16)")
    ap.add_argument("--repeat", type=int, default=100000, help="runs per round (100000)")
    ap.add_argument("--rounds", type=int, default=9, help="rounds, alternated with the empty program (9)")
    ap.add_argument("--cpu", type=int, default=0, help="the CPU to run on (0)")
    a = ap.parse_args(argv)
    if not 1 <= a.pairs <= 256 or a.repeat < 1 or a.rounds < 1:
        sys.exit("error: --pairs 1..256, --repeat and --rounds at least 1")
    try:
        os.sched_setaffinity(0, {a.cpu})
    except OSError as e:
        sys.exit("error: --cpu %d: %s" % (a.cpu, e.strerror))
    try:
        m = map_create()
    except OSError as e:
        sys.exit("error: cannot create a hash map (root, and a kernel with BPF?): %s" % e.strerror)
    full, empty = prog_load(program(m, a.pairs)), prog_load(mov64_imm(R0, 0) + exit_insn())
    per = []
    for r in range(a.rounds):
        d_full, d_empty = test_run(full, a.repeat), test_run(empty, a.repeat)
        per.append((d_full - d_empty) / a.pairs)
        print("round %d: program %d ns, empty %d ns: %.1f ns per pair" % (r, d_full, d_empty, per[-1]))
    print("kernel %s, CPU %d, %d pairs x %d runs x %d rounds: median %.1f ns per pair (update + delete)"
          % (os.uname().release, a.cpu, a.pairs, a.repeat, a.rounds, statistics.median(per)))


if __name__ == "__main__":
    main(sys.argv[1:])
