#!/bin/bash
# scripts/vm-init.sh, the VM's PID 1, refuses to run anywhere else: run by hand on a machine it
# once mounted tmpfs over /tmp, /run and /dev/shm and stacked proc, debugfs, tracefs, bpf and
# cgroup2 mounts. The test runs it in a private mount namespace, so that a planted defect changes
# nothing outside it (but the directory it makes on /dev, a mount shared with the machine, which
# the test removes), and expects one line, exit 2 and no new mount.
# Plant: vm-init.sh without its PID 1 check.
# Plant command: sed -i 's/^if ((\$\$ != 1)); then$/if false; then/' scripts/vm-init.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

vm_init_refuses_the_host() {
	local out
	command -v unshare >/dev/null || skip "no unshare (util-linux)"
	unshare -m --propagation private true 2>/dev/null || skip "no private mount namespace here (needs root)"
	# shellcheck disable=SC2016 # expanded by the inner bash
	out=$(unshare -m --propagation private bash -c '
		before=$(findmnt -rn -o TARGET | sort)
		[[ ! -e /dev/.lab-host-root ]] || had_dir=1
		rc=0
		"$1" -h 2>&1 </dev/null || rc=$?
		echo "exit $rc"
		after=$(findmnt -rn -o TARGET | sort)
		comm -13 <(echo "$before") <(echo "$after") | sed "s/^/new mount: /"
		if [[ -z ${had_dir:-} && -d /dev/.lab-host-root ]]; then
			umount /dev/.lab-host-root 2>/dev/null
			rmdir /dev/.lab-host-root && echo "new mount: /dev/.lab-host-root (removed)"
		fi' - "$S/vm-init.sh")
	echo "$out"
	grep -q "^error: scripts/vm-init.sh is the lab VM's init (PID 1)" <<<"$out" || { echo "expected the PID 1 error"; return 1; }
	grep -qx 'exit 2' <<<"$out" || { echo "expected exit 2"; return 1; }
	! grep -q '^new mount: ' <<<"$out" || { echo "vm-init.sh mounted something"; return 1; }
}

run_test vm_init_refuses_the_host "$@"
