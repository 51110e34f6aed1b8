#!/bin/bash
# A VM stopped by a kill of its whole process group leaves no QEMU and no run directory, however
# many times the signal comes: make regress's VMs share its group, so one kill of the group reaches
# vm.sh, and regress.sh then passes it on once more. vm.sh runs here with a QEMU of the scratch
# directory that takes a second to stop, in a process group of its own, and gets two SIGTERMs to
# the group 0.2 s apart; the second one used to cut vm.sh's clean-up short (2026-12-03: a 6.12
# regress run left its run directory in ~/.cache/bpf-lab/vm).
# Plant: vm.sh's clean-up without its guard against a further signal.
# Plant command: sed -i "/^\ttrap '' INT TERM HUP$/d" scripts/vm.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

vm_cleans_up_after_repeated_signals() {
	local qemu=$scratch/qemu runs=$scratch/runs mark=$scratch/started pid rc=0 left
	# shellcheck disable=SC2016 # the fake QEMU's own expansions
	printf '%s\n' '#!/bin/bash' 'trap "sleep 1; exit 0" TERM' 'echo started >"$FAKE_QEMU_MARK"' \
		'while :; do sleep 0.1; done' >"$qemu"
	chmod +x "$qemu"
	: >"$scratch/bzImage"
	mkdir -p "$runs"
	setsid env -u LAB_OWN_GROUP LAB_QEMU="$qemu" FAKE_QEMU_MARK="$mark" LAB_VM_RUNS="$runs" ACCEL=tcg \
		"$S/vm.sh" -k "$scratch/bzImage" -- true >"$scratch/vm.out" 2>&1 &
	pid=$!
	poll 100 test -f "$mark" || { echo "the fake QEMU never started"; cat "$scratch/vm.out"; kill -KILL -- -"$pid"; return 1; }
	kill -TERM -- -"$pid"
	sleep 0.2
	kill -TERM -- -"$pid" 2>/dev/null || true
	if ! poll 100 ended "$pid"; then
		echo "vm.sh still runs 10 s after the signals"
		kill -KILL -- -"$pid"
		return 1
	fi
	wait "$pid" || rc=$?
	sleep 1.5	# the fake QEMU's own stop
	left=$(ls "$runs"; pgrep -f "^/bin/bash $qemu" || true)
	echo "vm.sh exited $rc; left behind: ${left:-nothing}"
	pkill -KILL -f "^/bin/bash $qemu" || true
	[[ -z $left ]]
}

run_test vm_cleans_up_after_repeated_signals "$@"
