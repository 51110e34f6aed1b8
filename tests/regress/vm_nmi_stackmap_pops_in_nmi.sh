#!/bin/bash
# A full stack map popped in NMI: on the series' regress kernel, bpf_get_stackid() runs in the NMI
# of the all-CPU backtrace (scripts/nmi-stackmap.sh, tools/testing/nmi_stackmap), some of its pops
# get no node (-ENOMEM), and the kernel logs no splat that config/<base>/known-splats does not
# name, is not tainted and keeps lockdep on.
# Plant: the BPF program on a tracepoint that no NMI runs, in a scratch worktree of the lab (the
#   script builds the tool from its own LAB_ROOT):
#   sed -i 's|raw_tp/nmi_handler|raw_tp/sched_process_free|' tools/testing/nmi_stackmap/nmi_stackmap.bpf.c
#   -> "not ok 1".
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

vm_nmi_stackmap_pops_in_nmi() {
	local out rc=0
	out=$("$S/nmi-stackmap.sh" -d 3 HEAD 2>&1) || rc=$?
	echo "$out"
	((rc == 0)) && grep -qE '^\| head \|.*\| untainted, (on|none) \| [0-9]+ \(0\) \| ok \|$' <<<"$out"
}

run_test vm_nmi_stackmap_pops_in_nmi "$@"
