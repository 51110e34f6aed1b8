#!/bin/bash
# A background run ignores SIGINT (bash: asynchronous commands of a non-interactive shell), and so
# do vm.sh and its callers (regress.sh), which then cannot trap it: the group's SIGINT stops only
# QEMU. vm.sh must report that as an interruption (exit 130), so that make regress stops and
# resumes later instead of counting the test it ran as a crash.
# Plant: vm.sh without its check of QEMU's "terminating on signal" (it says the VM ended without
# reporting the command's exit status, and exits 1).
# Plant command: sed -i '/exit \$((128 + sig))/d' scripts/vm.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

vm_sigint_to_qemu_is_an_interruption() {
	local runs=$scratch/sigint-runs out=$scratch/sigint.out vm_rc
	mkdir -p "$runs"
	# SIGINT ignored from the start, as in a job started with & by a script
	# shellcheck disable=SC2016 # $0 and $@ are the inner shell's
	interrupt_vm "$out" 30 env LAB_VM_RUNS="$runs" bash -c 'trap "" INT; exec "$0" "$@"' \
		"$S/vm.sh" -k "$(vm_kernel)" -t 300 -- 'echo guest-started; sleep 1000' || return 1
	echo "vm.sh exit status: $vm_rc; its last line: $(tail -n1 "$out")"
	[[ -z $(our_qemu) ]] || { echo "qemu left running: $(our_qemu)"; return 1; }
	((vm_rc == 130))
}

run_test vm_sigint_to_qemu_is_an_interruption "$@"
