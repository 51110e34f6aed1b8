#!/bin/bash
# Ctrl-C: SIGINT to the whole process group, as a terminal sends it, during a run: no QEMU, no run
# directory left.
# Plant: the old vm.sh and vm-init.sh (GNU timeout in its own process group; git show 7842880:scripts/vm.sh).
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

vm_ctrl_c_leaves_nothing() {
	local runs=$scratch/ctrl-c-runs pid i rc=0
	mkdir -p "$runs"
	LAB_VM_RUNS=$runs setsid "$S/vm.sh" -k "$(vm_kernel)" -t 300 -- 'echo guest-started; sleep 1000' \
		>"$scratch/ctrl-c.out" 2>&1 &
	pid=$!	# setsid runs vm.sh in place: its pid is the process group
	for ((i = 0; i < 120; i++)); do
		grep -q guest-started "$scratch/ctrl-c.out" && break
		sleep 1
	done
	grep -q guest-started "$scratch/ctrl-c.out" || { cat "$scratch/ctrl-c.out"; kill -- -"$pid"; return 1; }
	kill -INT -- -"$pid"
	for ((i = 0; i < 20; i++)); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 1
	done
	if kill -0 "$pid" 2>/dev/null; then
		echo "vm.sh still runs 20s after SIGINT; qemu: $(our_qemu)"
		kill -- -"$pid"
		# shellcheck disable=SC2046 # one word per pid
		kill $(our_qemu) 2>/dev/null
		return 1
	fi
	wait "$pid" || rc=$?
	sleep 1
	echo "vm.sh exit status after SIGINT: $rc"
	if [[ -n $(our_qemu) ]]; then
		echo "qemu left running after Ctrl-C: $(our_qemu)"
		# shellcheck disable=SC2046 # one word per pid
		kill $(our_qemu)
		return 1
	fi
	[[ -z $(find "$runs" -mindepth 1 -maxdepth 1 ! -name 'kvm-verdict.*') ]] || { echo "left behind: $(ls -A "$runs")"; return 1; }
	((rc != 0))
}

run_test vm_ctrl_c_leaves_nothing "$@"
