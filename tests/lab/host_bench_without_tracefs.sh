#!/bin/bash
# make host-bench on a host without tracefs mounted (simulated: unmounted in a private mount
# namespace) mounts it where only the suite sees it, runs trig-tp and exits 0; the host's
# mounts are the same afterwards.
# Plant: measure.sh -H (make host-bench) not mounting tracefs in a private mount namespace (it then skips trig-tp).
# Plant command: sed -i 's/if unshare -m --propagation private mount -t tracefs tracefs \/sys\/kernel\/tracing 2>\/dev\/null; then/if false; then/' scripts/measure.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

host_bench_without_tracefs() {
	local out before
	before=$(findmnt -rn -o TARGET | sort)
	# shellcheck disable=SC2016 # the inner bash expands $1
	out=$(unshare -m --propagation private bash -c '
		umount -l /sys/kernel/tracing 2>/dev/null; umount -l /sys/kernel/debug 2>/dev/null
		[[ ! -e /sys/kernel/tracing/events ]] || exit 99
		BENCHS=trig-tp "$1/bench.sh" -H' - "$S" 2>&1) || { echo "$out"; echo "host-bench failed"; return 1; }
	echo "$out"
	grep -qE '^  trig-tp +[0-9]' <<<"$out"	# its row of the summary, with a result
	[[ $(findmnt -rn -o TARGET | sort) == "$before" ]] || { echo "the host's mounts changed"; return 1; }
}

run_test host_bench_without_tracefs "$@"
