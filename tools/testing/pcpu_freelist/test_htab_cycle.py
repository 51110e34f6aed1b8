#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Unit tests of htab_cycle.py: the BPF instructions it writes by hand, and its argument checks.
No bpf() call is made.

Plant: the delete called as a second update (FN_MAP_DELETE_ELEM = 2): the program would insert
twice and never push, and test_pairs_call_update_then_delete must fail.
"""
import struct
import unittest

import htab_cycle as hc


def decode(code):
    """(opcode, dst, src, off, imm) of each 8-byte instruction."""
    out = []
    for i in range(0, len(code), 8):
        op, regs, off, imm = struct.unpack("<BBhi", code[i:i + 8])
        out.append((op, regs & 0xf, regs >> 4, off, imm))
    return out


class Encoding(unittest.TestCase):
    def test_single_instructions(self):
        self.assertEqual(hc.mov64_imm(hc.R0, 0), bytes([0xb7, 0, 0, 0, 0, 0, 0, 0]))
        self.assertEqual(hc.exit_insn(), bytes([0x95]) + bytes(7))
        self.assertEqual(hc.mov64_reg(hc.R2, hc.R10), bytes([0xbf, 0xa2, 0, 0, 0, 0, 0, 0]))
        self.assertEqual(hc.add64_imm(hc.R2, -4), bytes([0x07, 0x02, 0, 0]) + struct.pack("<i", -4))
        self.assertEqual(hc.st_mem("w", hc.R10, -4, 1)[:4], bytes([0x62, 0x0a]) + struct.pack("<h", -4))

    def test_map_fd_load_is_two_instructions_with_pseudo_map_fd(self):
        ld = decode(hc.ld_map_fd(hc.R1, 7))
        self.assertEqual(ld, [(0x18, 1, 1, 0, 7), (0, 0, 0, 0, 0)])

    def test_pairs_call_update_then_delete(self):
        for k in (1, 16):
            prog = decode(hc.program(9, k))
            self.assertEqual(len(prog), 2 + 13 * k + 2)
            calls = [imm for op, _, _, _, imm in prog if op == 0x85]
            self.assertEqual(calls, [hc.FN_MAP_UPDATE_ELEM, hc.FN_MAP_DELETE_ELEM] * k)
            self.assertEqual((calls[0], calls[1]), (2, 3))     # bpf_map_update_elem, _delete_elem
            flags = [imm for op, dst, _, _, imm in prog if op == 0xb7 and dst == hc.R4]
            self.assertEqual(flags, [hc.BPF_NOEXIST] * k)
            self.assertEqual(prog[-2:], [(0xb7, 0, 0, 0, 0), (0x95, 0, 0, 0, 0)])


class Arguments(unittest.TestCase):
    def test_bad_counts_exit_with_one_line(self):
        for argv in (["--pairs", "0"], ["--pairs", "257"], ["--repeat", "0"], ["--rounds", "0"]):
            with self.assertRaises(SystemExit) as cm:
                hc.main(argv)
            self.assertTrue(str(cm.exception).startswith("error: "), argv)


if __name__ == "__main__":
    unittest.main()
