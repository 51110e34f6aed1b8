#!/bin/bash
# Ctrl-C: SIGINT to the whole process group, as a terminal sends it, during a run: no QEMU, no run
# directory left.
# Plant: the old vm.sh and vm-init.sh (GNU timeout in its own process group; git show 7842880:scripts/vm.sh).
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

vm_ctrl_c_leaves_nothing() {
	local runs=$scratch/ctrl-c-runs vm_rc
	mkdir -p "$runs"
	interrupt_vm "$scratch/ctrl-c.out" 20 env LAB_VM_RUNS="$runs" "$S/vm.sh" -k "$(vm_kernel)" -t 300 -- \
		'echo guest-started; sleep 1000' || return 1
	sleep 1
	echo "vm.sh exit status after SIGINT: $vm_rc"
	if [[ -n $(our_qemu) ]]; then
		echo "qemu left running after Ctrl-C: $(our_qemu)"
		# shellcheck disable=SC2046 # one word per pid
		kill $(our_qemu)
		return 1
	fi
	[[ -z $(find "$runs" -mindepth 1 -maxdepth 1 ! -name 'kvm-verdict.*') ]] || { echo "left behind: $(ls -A "$runs")"; return 1; }
	((vm_rc != 0))
}

run_test vm_ctrl_c_leaves_nothing "$@"
