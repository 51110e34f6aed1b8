#!/bin/bash
# A guest that prints nothing for -s seconds hangs: reported with its last lines, long before -t.
# Plant: vm.sh without the silence check (the run then waits out -t).
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

vm_silent_guest_is_a_hang() {
	local t0=$SECONDS
	expect_fail 'VM hangs: no output from the guest for 15s' vm -s 15 -- 'echo last-words; sleep 1000' |
		tee "$scratch/silent.out"
	grep -q 'last-words' "$scratch/silent.out" || { echo "the command's last lines are not shown"; return 1; }
	((SECONDS - t0 < 120)) || { echo "took $((SECONDS - t0))s"; return 1; }
	[[ -z $(our_qemu) ]] || { echo "qemu left running: $(our_qemu)"; return 1; }
}

run_test vm_silent_guest_is_a_hang "$@"
