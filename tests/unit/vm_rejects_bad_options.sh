#!/bin/bash
# vm.sh rejects bad options with one line and a non-zero exit, before it looks for a kernel:
# fewer possible than online CPUs, no command, a kernel that does not exist.
# Plant: vm.sh without its check of possible against online CPUs.
# Plant command: sed -i '/must be at least the online CPUs/d' scripts/vm.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

vm_rejects_bad_options() {
	expect_fail 'possible CPUs \(1\) must be at least the online CPUs \(2\)' "$S/vm.sh" -c 2 -p 1 -- true
	expect_fail 'no command given' "$S/vm.sh" -c 2
	expect_fail "kernel '/nonexistent' not found" "$S/vm.sh" -k /nonexistent -- true
}

run_test vm_rejects_bad_options "$@"
