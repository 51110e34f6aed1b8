#!/bin/bash
# A freelist that loses a node now and then (lab/plants/freelist-lossy-pop.patch, on the series)
# is a regression that make regress names, against the series' recorded test_maps: test_maps fills
# preallocated hash maps to the last element.
# Plant: regress.sh comparing only pass counts, not each test's result (the lossy freelist's test_maps failure then passes).
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

vm_regress_catches_a_lossy_freelist() {
	local out rc=0 recorded
	# the series' results of the newest full run recorded (make regress RECORD=1)
	recorded=$("$S/readout.py" records latest --base "$BASE" --kind regress --name regress) || return 1
	out=$("$S/regress.sh" -b HEAD -B "$recorded/series" -o "$scratch/plant" \
		-p "$LAB_ROOT/lab/plants/freelist-lossy-pop.patch" test_maps 2>&1) || rc=$?
	echo "$out"
	((rc == 1)) && grep -q '^REGRESSION: test_maps: test_maps: base OK, series ' <<<"$out"
}

run_test vm_regress_catches_a_lossy_freelist "$@"
