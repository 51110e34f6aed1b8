#!/bin/bash
# The VM has the possible CPUs asked for (-p 64) and the online ones (-c 2), as the base's kernel
# counts them (config/<base>/possible-cpus.conf, VM_OFFLINE_CPUS).
# Plant: vm.sh without maxcpus (-smp N): the guest then has as many possible as online CPUs.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

vm_has_possible_cpus() {
	local out
	out=$(vm -c 2 -p 64 -- 'cat /sys/devices/system/cpu/possible /sys/devices/system/cpu/online')
	echo "$out"
	grep -qx '0-63' <<<"$out" && grep -qx '0-1' <<<"$out"
}

run_test vm_has_possible_cpus "$@"
