#!/bin/bash
# The ordering claims of the freelist patch hold in the kernel's memory model (make litmus): herd7
# answers Never for every litmus test of tools/testing/pcpu_freelist/litmus/ (Sometimes for a test
# whose Result line says so: a race the code tolerates) and Sometimes for every plant in its plants/. A test of 7.3 (config/7.3/tests), after series/tree, which makes the base:
# a missing tools/memory-model fails (in the unit tier a cold CI skipped it). Skips only when herd7
# cannot be fetched into the cache.
# Plant: a real test with its lock removed (a pop clearing the bit of its own empty head unlocked).
# Plant command: sed -i '/^P1/,/^}/{/spin_lock(lck);/d;/spin_unlock(lck);/d}' tools/testing/pcpu_freelist/litmus/LockedInvariant+push+ownempty.litmus
# Plant: a plant's expected verdict swapped: moved among the tests, its Result line saying Never.
# Plant command: cd tools/testing/pcpu_freelist/litmus && mv plants/MP+push+pop-noacquire.litmus . && sed -i 's/Result: Sometimes/Result: Never/' MP+push+pop-noacquire.litmus
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

ordering_claims_hold_in_lkmm() {
	local out
	[[ -f $BASE_DIR/tools/memory-model/linux-kernel.cfg ]] ||
		die "no tools/memory-model in $BASE_DIR: series/tree makes the $BASE base before this test"
	out=$("$S/litmus.sh" -f 2>&1) || skip "herd7 cannot be fetched: $(tail -n1 <<<"$out")"
	"$S/litmus.sh"
}

run_test ordering_claims_hold_in_lkmm "$@"
