#!/bin/bash
# A command that outlives -t is a failure that says so, and no QEMU of this test is left running.
# Plant: vm.sh's time limit killing QEMU but leaving its exit status 0.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

vm_timeout_is_a_failure() {
	expect_fail 'VM timed out after 20s' "$S/vm.sh" -k "$(vm_kernel)" -t 20 -- 'sleep 1000'
	[[ -z $(our_qemu) ]] || { echo "qemu left running: $(our_qemu)"; return 1; }
}

run_test vm_timeout_is_a_failure "$@"
