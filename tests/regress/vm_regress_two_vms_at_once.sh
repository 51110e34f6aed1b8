#!/bin/bash
# VMS=2 runs the base's VM and the series' side by side, each side's results in a directory of
# its own, both reported. When the two sides build one kernel and one selftests (-r of the base),
# they share one results directory in the cache: one side runs its tests, the other reuses them.
# Plant: regress.sh without that check (both sides then run the test into one directory).
# Plant command: sed -i 's/^if ((jobs == 2)) && \[\[ -z \$recorded/if false \&\& [[ -z $recorded/' scripts/regress.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

# put_back LINK TARGET: LINK points at TARGET again, or is gone if TARGET is empty
put_back() {
	if [[ -n $2 ]]; then ln -sfn "$2" "$1"; else rm -f "$1"; fi
}

vm_regress_two_vms_at_once() {
	local out runs
	# align: one second, on every base
	out=$(VMS=2 "$S/regress.sh" -o "$scratch/two" -a align test_progs 2>&1) || { echo "$out"; return 1; }
	echo "$out"
	grep -q '^>>> base: test_progs: 1 tests to run' <<<"$out" &&
		grep -q '^>>> series: test_progs: 1 tests to run' <<<"$out" || return 1
	[[ -s $scratch/two/base/test_progs.json && -s $scratch/two/series/test_progs.json ]] ||
		{ echo "# a side's results are missing"; return 1; }
	# One kernel on both sides, in the cache, in a directory of its own (the -a list is in its
	# key), removed after; the cache's links to the last run are put back.
	# (removed whether or not the run got as far as linking it: the key is this test's alone)
	local links=$BASE_CACHE/regress allow="align,lab_two_vms_$$" last_base last_series rc=0
	last_base=$(readlink "$links/base" || true) last_series=$(readlink "$links/series" || true)
	out=$(VMS=2 "$S/regress.sh" -r "$BASE_TAG" -a "$allow" test_progs 2>&1) || rc=$?
	rm -rf "$links"/*-"$(sha1sum <<<"$allow" | cut -c1-8)"
	put_back "$links/base" "$last_base"
	put_back "$links/series" "$last_series"
	echo "$out"
	((rc == 0)) || return 1
	runs=$(grep -c 'test_progs: 1 tests to run' <<<"$out" || true)
	((runs <= 1)) || { echo "# the test ran $runs times into one results directory"; return 1; }
}

run_test vm_regress_two_vms_at_once "$@"
