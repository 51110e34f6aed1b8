#!/bin/bash
# vm.sh exits with the command's exit status, and the kernel that ran it is the base's.
# Plant: vm-init.sh not passing the command's exit status to the host.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

vm_returns_exit_status() {
	local out rc=0
	out=$(vm -- 'uname -r; exit 3') || rc=$?
	echo "$out"
	[[ $rc == 3 ]] || { echo "exit status $rc, expected 3"; return 1; }
	grep -q "^${BASE//./\\.}\\." <<<"$out" || { echo "not a $BASE kernel"; return 1; }
}

run_test vm_returns_exit_status "$@"
