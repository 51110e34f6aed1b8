#!/bin/bash
# vm.sh rejects bad options with one line and a non-zero exit, before it looks for a kernel:
# fewer possible than online CPUs, a bad time limit or memory size, more than one online CPU with
# the deterministic clock, no command, a kernel that does not exist. Its options set the knobs of
# the same names and get lib.sh's one check of them (check_knobs), which names the knob.
# Plant: vm.sh without its check of possible against online CPUs (its -p not passed to the knobs'
# check).
# Plant command: sed -i 's/ MAXCPUS=\$maxcpus / /' scripts/vm.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

vm_rejects_bad_options() {
	# -k /nonexistent: whatever the check lets through stops there, with another message
	expect_fail '^error: MAXCPUS=1: expected possible CPUs, 2 \(the online CPUs\)' "$S/vm.sh" -k /nonexistent -c 2 -p 1 -- true
	expect_fail '^error: TIMEOUT=0: expected a positive number of seconds$' "$S/vm.sh" -k /nonexistent -t 0 -- true
	expect_fail '^error: MEM=2GB: expected a size like 512M or 2G$' "$S/vm.sh" -k /nonexistent -m 2GB -- true
	expect_fail '^error: CPUS=2: ICOUNT=1 runs one online CPU' "$S/vm.sh" -k /nonexistent -i -c 2 -- true
	expect_fail 'no command given' "$S/vm.sh" -c 2
	expect_fail "kernel '/nonexistent' not found" "$S/vm.sh" -k /nonexistent -- true
}

run_test vm_rejects_bad_options "$@"
