#!/bin/bash
# The guest mounts fresh tmpfs on /tmp: a clone, a cache or a working directory under the host's
# /tmp must still be visible there (check's own scratch directory is one).
# Plant: vm-init.sh without the bind mounts of the host's /tmp paths.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

vm_sees_host_tmp_paths() {
	local dir=$scratch/cwd out
	mkdir -p "$dir"
	echo "seen from the guest" >"$dir/marker"
	out=$(cd "$dir" && vm -- 'pwd; cat marker; touch /tmp/guest-tmp-is-writable && echo writable')
	echo "$out"
	grep -qx "$dir" <<<"$out"
	grep -q "seen from the guest" <<<"$out"
	grep -qx writable <<<"$out"
	[[ ! -e /tmp/guest-tmp-is-writable ]]	# the guest's /tmp is its own
}

run_test vm_sees_host_tmp_paths "$@"
